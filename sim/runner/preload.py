"""The worker pool's server (sim.runner.pool): `python -m sim.runner.preload FD [GAME ...]`.

Importing this module readies a process to play chunks: numpy, numba, Parquet encoding and
the runner's task code imported, and numba's runtime started (by loading one tiny cached
function; a load does not build numba's compiler tables, sim.compile_cache); a new process
pays about a second of CPU time for that. The server does it once, imports the engines of the
games named (through their plug-ins), then forks every worker from itself: a worker starts
ready, with only its lineup's machine code left to load (a few hundredths of a second).
"""

import contextlib
import os
import socket
import sys
import warnings

import numpy as np

from sim.compile_cache import CompileCacheWarning

warnings.simplefilter("ignore", CompileCacheWarning)  # a cache it cannot write: the run says so

import sim.runner.tasks  # noqa: E402, F401  (the task code and Parquet encoding)
from sim.jit import jit  # noqa: E402
from sim.plugins import get_game  # noqa: E402
from sim.runner.pool import serve_forks  # noqa: E402


@jit
def _ready(x):
    return x + 1


_ready(np.int64(1))

if __name__ == "__main__":
    for name in sys.argv[2:]:
        with contextlib.suppress(Exception):  # else each worker meets the problem itself
            get_game(name).simulate_chunk  # noqa: B018  (a plug-in's engine, imported)
    serve_forks(socket.socket(fileno=int(sys.argv[1])))
    # the pool waits for this process to end: skip the interpreter's teardown (numba, pyarrow),
    # which holds up the end of every run and has nothing to save
    os._exit(0)
