import os
import pathlib

import pytest

SOURCE_DIR = pathlib.Path(__file__).resolve().parents[2]


@pytest.fixture(scope="session")
def source_dir() -> pathlib.Path:
    return SOURCE_DIR


@pytest.fixture(scope="session")
def gaeval_binary() -> str:
    """The CLI built beside the module (ctest sets GAEVAL_BINARY)."""
    path = os.environ.get("GAEVAL_BINARY")
    if not path:
        pytest.skip("GAEVAL_BINARY is not set (run through ctest)")
    return path
