"""Figgie tournaments and the research environment, on the engine's simulator."""
