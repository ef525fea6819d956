"""The cloud's clients: boto3 clients built the one way this service wants them
(:mod:`app.cloud.clients`). boto3 is imported when a client is made, never at import."""
