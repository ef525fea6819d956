"""Floods standard output: an array that never ends, megabytes of it (a fault: bad output,
once 64 kB have come without a complete value)."""

import sys
import time

sys.stdin.readline()
sys.stdout.write("[" + "1," * (2 << 20))
sys.stdout.flush()
time.sleep(60)
