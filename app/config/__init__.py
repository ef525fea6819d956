"""The settings every layer may read (:mod:`app.config.settings`), and nothing else."""
