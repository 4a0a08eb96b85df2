"""One moto S3 server for this folder's tests (tests/storage.py), and apps replicating into a
fresh bucket of it each."""

from __future__ import annotations

import pytest

from tests.storage import ObjectStorage


@pytest.fixture(scope="module")
def object_storage(tmp_path_factory):
    storage = ObjectStorage(tmp_path_factory.mktemp("s3"))
    yield storage
    storage.stop()


@pytest.fixture
def replica_settings(object_storage) -> dict:
    """A deployment's replica settings: a fresh bucket, its own key."""
    return object_storage.settings()


@pytest.fixture
def replica_app(make_app, replica_settings):
    """An app (no Redis: its jobs run in-process) replicating into a fresh bucket."""
    return make_app(**replica_settings)
