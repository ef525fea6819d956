"""What every layer may read: the settings, the logging set-up, how AWS clients are made."""
