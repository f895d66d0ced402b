"""A chunk's Parquet part (sim.storage.parts.encode) is the file pyarrow writes for the same
columns, and writing one imports no pandas (the runs' workers never need it)."""

import io
import subprocess
import sys

import numpy as np
import pyarrow as pa
import pyarrow.parquet as pq
import pytest

from sim.storage.parts import COMPRESSION, encode

pytestmark = pytest.mark.without_engines  # runs while the engines compile


def _as_pyarrow_makes_it(columns):
    arrays = {name: pa.array(values, type=pa.string()) if values.dtype == object
              else pa.array(values) for name, values in columns.items()}  # fmt: skip
    buffer = io.BytesIO()
    pq.write_table(pa.table(arrays), buffer, compression=COMPRESSION, row_group_size=1 << 24)
    return buffer.getvalue()


def test_a_part_is_the_file_pyarrow_writes_for_its_columns():
    rng = np.random.default_rng(5)
    for n in (0, 1, 7, 1000):
        table = rng.integers(-(2**40), 2**40, size=(n, 3))
        columns = {
            "int64": rng.integers(-(2**62), 2**62, size=n),
            "int32": rng.integers(-1000, 1000, size=n).astype(np.int32),
            "uint8": rng.integers(0, 255, size=n).astype(np.uint8),
            "float": rng.normal(size=n),
            "flag": rng.random(n) < 0.3,
            "label": np.array([f"seat-{i % 5}-é" * (i % 3) for i in range(n)], dtype=object),
            "strided": table[:, 1],  # a column of a 2-D array: not contiguous
        }
        assert encode(columns) == _as_pyarrow_makes_it(columns)


def test_writing_a_part_imports_no_pandas():
    code = (
        "import sys, numpy as np\n"
        "from sim.storage.parts import encode\n"
        "encode({'a': np.arange(3), 'b': np.array(['x', 'y', 'z'], dtype=object),"
        " 'c': np.ones(3, bool)})\n"
        "print('pandas' in sys.modules)\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert done.stdout.strip() == "False"
