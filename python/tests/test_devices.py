# SPDX-License-Identifier: Apache-2.0 OR MIT
"""Devices: the list as `merklize devices` prints it, and opening one by its spec."""
from __future__ import annotations

import oracles

import merklize


def test_devices_are_listed_and_opened(cli):
    listed = merklize.devices()
    assert listed and all(isinstance(d, merklize.DeviceInfo) for d in listed)
    printed = cli("devices")
    for info in listed:
        assert info.type in ("gpu", "cpu", "accelerator", "other")
        assert info.spec in printed and info.name in printed
        device = merklize.Device(info.spec)
        assert device.info == info and info.spec in repr(device)
        data = oracles.random_leaves(33)
        assert merklize.root(data, device=device) == merklize.root(data, device=info.spec) == \
            oracles.root(oracles.split(data), oracles.blake3)


def test_the_default_device():
    device = merklize.Device()
    assert device.info in merklize.devices()
    assert merklize.Builder().device.info == device.info


def test_version_and_names():
    assert merklize.__version__.count(".") == 2 and merklize.ABI_VERSION == 1
    assert set(merklize.HASHES) == {"blake3", "blake3-parent", "sha256", "rfc6962", "keccak256",
                                    "sha3-256", "poseidon2-babybear", "poseidon2-koalabear",
                                    "poseidon2-goldilocks", "poseidon2-bn254"}
    assert merklize.SHAPES == ("promote", "zero")
    assert merklize.LEAF_HASHES == ("sha256", "blake3", "keccak256", "sha3-256")
