"""What the service tells its operator beside its answers: its log lines
(:mod:`app.observability.logs`: the request id, a game tag, Powertools' JSON on Lambda) and
the business metrics of the Lambda functions (:mod:`app.observability.metrics`, CloudWatch
embedded metric format)."""
