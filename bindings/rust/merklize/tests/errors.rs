// SPDX-License-Identifier: Apache-2.0 OR MIT
//! Bad input: each refused with its status and a message naming the problem, the caller's data
//! untouched; the names the crate knows against the library's lists; statuses and versions.

mod common;

use std::error::Error as _;

use common::commands::cli;
use common::{device, random_leaves, TempDir};
use merklize::{
    Blake3Mode, Builder, Device, Framing, Hash, LeafHash, Shape, Source, Status, TreeConfig,
    VerityConfig,
};

fn refused<T: std::fmt::Debug>(
    result: merklize::Result<T>,
    status: Status,
    parts: &[&str],
) -> merklize::Error {
    let e = result.expect_err("a refusal");
    assert_eq!(e.status(), status, "{}", e);
    for part in parts {
        assert!(
            e.message().contains(part),
            "{:?} does not say {:?}",
            e.message(),
            part
        );
    }
    assert_eq!(e.to_string(), e.message());
    e
}

#[test]
fn unknown_names_are_refused_listing_the_known_ones() {
    refused(
        "md5".parse::<Hash>(),
        Status::Argument,
        &[
            "unknown hash \"md5\"",
            "blake3, blake3-parent, sha256, rfc6962, keccak256, sha3-256",
        ],
    );
    refused(
        "round".parse::<Shape>(),
        Status::Argument,
        &["unknown shape \"round\"", "promote, zero"],
    );
    refused(
        "SHA256".parse::<LeafHash>(),
        Status::Argument,
        &["unknown leaf hash"],
    );
    refused(
        "csv".parse::<Framing>(),
        Status::Argument,
        &["lines, length-prefixed"],
    );
    assert_eq!("blake3-parent".parse::<Hash>().unwrap(), Hash::Blake3Parent);
    assert_eq!(Shape::Zero.to_string(), "zero");
}

#[test]
fn the_crate_s_names_are_the_library_s() {
    let names = |all: Vec<&str>| all.into_iter().map(String::from).collect::<Vec<_>>();
    assert_eq!(
        merklize::hash_names(),
        names(Hash::ALL.iter().map(|h| h.as_str()).collect())
    );
    assert_eq!(
        merklize::shape_names(),
        names(Shape::ALL.iter().map(|s| s.as_str()).collect())
    );
    assert_eq!(
        merklize::leaf_hash_names(),
        names(LeafHash::ALL.iter().map(|h| h.as_str()).collect())
    );
}

#[test]
fn configurations_the_tree_does_not_allow_are_refused_naming_the_item() {
    let device = device();
    let cases: Vec<(TreeConfig, &[&str])> = vec![
        (
            TreeConfig::new().mix_in_length(3),
            &["config.mix_in_length", "sha256", "zero"],
        ),
        (TreeConfig::new().arity(3), &["config.arity"]),
        (
            TreeConfig::new().shape(Shape::Zero).depth(65),
            &["config.depth"],
        ),
        (
            TreeConfig::new().depth(u32::MAX),
            &["config.depth", "4294967295"],
        ),
        (
            TreeConfig::new().salt(b"salt"),
            &["config.salt needs config.leaf_size"],
        ),
        (
            TreeConfig::new().leaf_hash(LeafHash::Sha256),
            &["config.leaf_hash needs config.leaf_size"],
        ),
        (
            TreeConfig::new().hash(Hash::Rfc6962).shape(Shape::Zero),
            &["config.shape"],
        ),
        (
            TreeConfig::new()
                .leaf_size(4096)
                .leaf_hash(LeafHash::Blake3)
                .salt(b"x"),
            &["salt"],
        ),
    ];
    for (config, parts) in cases {
        let e = refused(Builder::new(&device, &config), Status::Argument, parts);
        assert!(e.source().is_none());
    }
}

#[test]
fn inputs_of_the_wrong_length_are_refused_and_outputs_left_untouched() {
    let device = device();
    let builder = Builder::new(&device, &TreeConfig::new()).unwrap();
    refused(
        builder.root(Source::Memory(&[7u8; 33])),
        Status::Argument,
        &["33"],
    );
    refused(
        builder.build(Source::Memory(&[7u8; 65])),
        Status::Argument,
        &["65"],
    );

    let chunks = [[1u8; 64]; 4];
    let mut digests = [[0xAAu8; 32]; 3];
    refused(
        device.sha256_layer_into(&chunks, &mut digests),
        Status::Argument,
        &["4 chunks", "room for 3"],
    );
    assert_eq!(digests, [[0xAA; 32]; 3], "digests untouched");

    let leaves = random_leaves(10, 1);
    let tree = builder.build(Source::leaves(&leaves)).unwrap();
    let proof = tree.prove(3).unwrap();
    refused(
        proof.verify(&leaves[3..5], &tree.root()),
        Status::Argument,
        &["leaf_count is 2", "one leaf per proven index"],
    );
    refused(
        proof.verify(&[], &tree.root()),
        Status::Argument,
        &["leaf_count is 0"],
    );
    refused(tree.prove(10), Status::Argument, &["10"]);
    refused(
        tree.level(tree.depth() + 1),
        Status::Argument,
        &["out of range"],
    );
    refused(
        tree.node(0, 10),
        Status::Argument,
        &["node 10 out of range", "10 nodes"],
    );
    assert_eq!(
        tree.level(0).unwrap(),
        &leaves[..],
        "the leaves as they were given"
    );
}

#[test]
fn missing_files_are_io_errors_naming_the_path_and_outputs_left_untouched() {
    let device = device();
    let dir = TempDir::new("missing");
    let missing = dir.path("no-such-file");
    let name = missing.display().to_string();
    let builder = Builder::new(&device, &TreeConfig::new()).unwrap();
    refused(builder.root_file(&missing), Status::Io, &[&name]);
    refused(builder.build(Source::path(&missing)), Status::Io, &[&name]);
    refused(
        builder.prove(Source::path(&missing), 0),
        Status::Io,
        &[&name],
    );
    let mut out = [0xAAu8; 64];
    refused(
        device.blake3_xof(Blake3Mode::Hash, Source::path(&missing), &mut out),
        Status::Io,
        &[&name],
    );
    assert_eq!(out, [0xAA; 64], "the output untouched");
    refused(
        device.dm_verity_root(&VerityConfig::new(), Source::path(&missing)),
        Status::Io,
        &[&name],
    );
    refused(
        device.log_leaves(Source::path(&missing), Framing::Lines),
        Status::Io,
        &[&name],
    );
}

#[test]
fn nul_bytes_in_strings_are_refused_before_the_library_sees_them() {
    let device = device();
    let builder = Builder::new(&device, &TreeConfig::new()).unwrap();
    refused(builder.root_file("a\0b"), Status::Argument, &["NUL"]);
    refused(
        device.blake3_with(Blake3Mode::DeriveKey("ctx\0"), Source::Memory(b"x")),
        Status::Argument,
        &["NUL", "context"],
    );
    refused(
        Device::open("gpu\0"),
        Status::Argument,
        &["NUL", "device spec"],
    );
}

#[test]
fn devices_are_listed_opened_by_spec_and_refused_when_none_matches() {
    let list = merklize::devices().unwrap();
    assert!(!list.is_empty(), "the tests run with an OpenCL device");
    for info in &list {
        let device = Device::open(&info.spec).unwrap();
        assert_eq!(&device.info().unwrap(), info);
        assert!(
            ["gpu", "cpu", "accelerator", "other"].contains(&info.device_type.as_str()),
            "{:?}",
            info
        );
        assert!(format!("{:?}", device).contains(&info.name));
    }
    refused(
        Device::open("no-such-device-anywhere"),
        Status::NoDevice,
        &["no-such-device-anywhere", &list[0].spec],
    );
    let default = Device::open_default().unwrap().info().unwrap();
    assert!(list.contains(&default));
}

#[test]
fn statuses_have_the_library_s_names_and_numbers() {
    let all = [
        (Status::Argument, 1, "MERKLIZE_ERROR_ARGUMENT"),
        (Status::NoDevice, 2, "MERKLIZE_ERROR_NO_DEVICE"),
        (Status::OpenCl, 3, "MERKLIZE_ERROR_OPENCL"),
        (Status::Io, 4, "MERKLIZE_ERROR_IO"),
        (Status::Decode, 5, "MERKLIZE_ERROR_DECODE"),
        (Status::NoMemory, 6, "MERKLIZE_ERROR_NO_MEMORY"),
        (Status::Internal, 7, "MERKLIZE_ERROR_INTERNAL"),
        (Status::Unusable, 8, "MERKLIZE_ERROR_UNUSABLE"),
    ];
    for (status, code, name) in all {
        assert_eq!(status.code(), Some(code));
        assert_eq!(status.name(), name);
        assert_eq!(status.to_string(), name);
    }
    assert_eq!(Status::InvalidProof.code(), None);
    assert_eq!(Status::Other(99).name(), "unknown status");
}

#[test]
fn the_version_is_the_tool_s_and_the_abi_this_crate_declares() {
    assert_eq!(merklize::abi_version(), merklize::sys::MERKLIZE_ABI_VERSION);
    let version = merklize::version();
    assert_eq!(version.split('.').count(), 3, "{}", version);
    if let Some(cli) = cli() {
        let printed = common::commands::run(&cli, &["--version"]);
        assert!(
            printed.contains(&version),
            "{:?} against {:?}",
            printed,
            version
        );
    }
}

#[test]
fn errors_work_with_question_marks_and_boxes() {
    fn root_of_nothing() -> Result<[u8; 32], Box<dyn std::error::Error + Send + Sync>> {
        let device = Device::open_default()?;
        Ok(Builder::new(&device, &TreeConfig::new())?.root(Source::Memory(&[]))?)
    }
    let e = root_of_nothing().unwrap_err();
    assert!(!e.to_string().is_empty());
}
