"""The entry points: each Lambda function's handler module (HTTP through Mangum, the
websocket routes and pusher, the clock), each importing only what it serves and building
nothing until its first invocation (app/entrypoints/runtime.py)."""
