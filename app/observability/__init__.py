"""What the service tells its operator beside its answers: the business metrics of the
Lambda functions (:mod:`app.observability.metrics`, CloudWatch embedded metric format)."""
