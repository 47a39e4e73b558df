// SPDX-License-Identifier: Apache-2.0 OR MIT
//! Roots and proofs against the merklize command-line tool ($MERKLIZE_CLI, set by the ctest
//! harness), itself tested against tests/vectors, OpenSSL, pymerkle, remerkleable and a Python
//! model of Poseidon2: every hash (the Poseidon2 ones over canonical leaves) and shape on sizes 1, 2, 3, 2^k - 1, 2^k, 2^k + 1, from memory, a path and a
//! descriptor; then fixed depths, SSZ's mixed-in length, data blocks (leaf size, leaf hash,
//! salt), k-ary trees, and empty inputs where a tree has a root.

mod common;

use std::fs::File;
use std::path::Path;

use common::commands::{cli, run};
use common::{device, hex, leaf_bytes, leaves_for, random_bytes, random_leaves, TempDir};
use merklize::{
    Builder, Device, Hash, Keep, LeafHash, Proof, ProofKind, Shape, Source, TreeConfig,
};

/// The tool's path; where $MERKLIZE_CLI is unset, the test returns (cli() says so).
macro_rules! cli_or_return {
    () => {
        match cli() {
            Some(cli) => cli,
            None => return,
        }
    };
}

const SIZES: &[usize] = &[1, 2, 3, 7, 8, 9, 255, 256, 257, 1023, 1024, 1025];

/// Every hash with every shape it allows.
fn trees() -> Vec<(Hash, Shape)> {
    let mut out = Vec::new();
    for &hash in Hash::ALL {
        for &shape in Shape::ALL {
            if hash != Hash::Rfc6962 || shape == Shape::Promote {
                out.push((hash, shape));
            }
        }
    }
    out
}

fn cli_args<'a>(command: &'a str, hash: Hash, shape: Shape, extra: &[&'a str]) -> Vec<String> {
    let mut args = vec![
        command.to_string(),
        "--hash".into(),
        hash.to_string(),
        "--pad".into(),
        shape.to_string(),
    ];
    args.extend(extra.iter().map(|s| s.to_string()));
    args
}

/// The root from memory (build and root), a path and a descriptor: all one, returned.
fn roots_agree(builder: &Builder, bytes: &[u8], path: &Path, what: &str) -> [u8; 32] {
    let tree = builder
        .build(Source::Memory(bytes))
        .unwrap_or_else(|e| panic!("{}: build: {}", what, e));
    let root = tree.root();
    assert_eq!(
        builder.root(Source::Memory(bytes)).unwrap(),
        root,
        "{}: root from memory",
        what
    );
    assert_eq!(
        builder.root_file(path).unwrap(),
        root,
        "{}: root of the path",
        what
    );
    let file = File::open(path).unwrap();
    assert_eq!(
        builder.root_fd(&file).unwrap(),
        root,
        "{}: root of a descriptor",
        what
    );
    assert_eq!(
        builder.build(Source::path(path)).unwrap().root(),
        root,
        "{}: build of the path",
        what
    );
    root
}

#[test]
fn every_hash_and_shape_at_the_hidden_sizes_equals_the_tool() {
    let cli = cli_or_return!();
    let device = device();
    let dir = TempDir::new("cli-trees");
    for (t, (hash, shape)) in trees().into_iter().enumerate() {
        let builder = Builder::new(&device, &TreeConfig::new().hash(hash).shape(shape)).unwrap();
        for &n in SIZES {
            let what = format!("{} {} n={}", hash, shape, n);
            let leaves = leaves_for(hash, n, (t * 10_000 + n) as u64);
            let bytes = leaf_bytes(&leaves);
            let path = dir.file("leaves", &bytes);
            let file = path.to_str().unwrap();
            let want = run(&cli, &cli_args("root", hash, shape, &[file]));
            let root = roots_agree(&builder, &bytes, &path, &what);
            assert_eq!(hex(&root), want, "{}", what);

            // Proofs of the first, a middle and the last leaf: the tool's JSON, byte for byte.
            let tree = builder.build(Source::leaves(&leaves)).unwrap();
            let mut indices = vec![0, n / 2, n - 1];
            indices.dedup();
            for &i in &indices {
                let index = i.to_string();
                let json = run(&cli, &cli_args("proof", hash, shape, &["-i", &index, file]));
                let proof = tree.prove(i as u64).unwrap();
                assert_eq!(
                    proof.to_json().unwrap(),
                    json,
                    "{}: proof of leaf {}",
                    what,
                    i
                );
                let streamed = builder.prove(Source::path(&path), i as u64).unwrap();
                assert_eq!(
                    streamed.to_json().unwrap(),
                    json,
                    "{}: streamed proof of leaf {}",
                    what,
                    i
                );
                let decoded = Proof::from_json(&json).unwrap();
                assert_eq!(decoded.kind(), ProofKind::Inclusion);
                assert_eq!(decoded.indices(), &[i as u64]);
                decoded
                    .verify(&[leaves[i]], &root)
                    .unwrap_or_else(|e| panic!("{}: {}", what, e));
                Proof::from_bytes(&proof.to_bytes().unwrap())
                    .unwrap()
                    .verify(&[leaves[i]], &root)
                    .unwrap();
            }
        }
    }
}

#[test]
fn fixed_depths_and_mixed_in_lengths_equal_the_tool() {
    let cli = cli_or_return!();
    let device = device();
    let dir = TempDir::new("cli-depths");
    for &hash in &[Hash::Sha256, Hash::Blake3, Hash::Blake3Parent] {
        for &n in &[1usize, 3, 8, 1025] {
            let leaves = random_leaves(n, n as u64 + 7);
            let path = dir.file("leaves", &leaf_bytes(&leaves));
            let file = path.to_str().unwrap();
            let mut cases: Vec<(TreeConfig, Vec<&str>)> =
                vec![(TreeConfig::new().depth(12), vec!["--depth", "12"])];
            if hash == Hash::Sha256 {
                cases.push((
                    TreeConfig::new().depth(11).mix_in_length(n as u64),
                    vec!["--depth", "11", "--mix-in-length"],
                ));
            }
            for (config, flags) in cases {
                let config = config.hash(hash).shape(Shape::Zero);
                let mut flags: Vec<String> = flags.iter().map(|s| s.to_string()).collect();
                if flags.last().map(String::as_str) == Some("--mix-in-length") {
                    flags.push(n.to_string());
                }
                let flags: Vec<&str> = flags.iter().map(String::as_str).collect();
                let what = format!("{} n={} {}", hash, n, flags.join(" "));
                let builder = Builder::new(&device, &config).unwrap();
                let mut args = flags.clone();
                args.push(file);
                let want = run(&cli, &cli_args("root", hash, Shape::Zero, &args));
                let root = roots_agree(&builder, &leaf_bytes(&leaves), &path, &what);
                assert_eq!(hex(&root), want, "{}", what);
                let i = n - 1;
                let index = i.to_string();
                let mut args = flags.clone();
                args.extend(["-i", &index, file]);
                let json = run(&cli, &cli_args("proof", hash, Shape::Zero, &args));
                let proof = builder
                    .build(Source::leaves(&leaves))
                    .unwrap()
                    .prove(i as u64)
                    .unwrap();
                assert_eq!(proof.to_json().unwrap(), json, "{}: proof", what);
                proof.verify(&[leaves[i]], &root).unwrap();
            }
        }
    }
}

#[test]
fn keccak256_and_sha3_256_roots_equal_the_tool() {
    let cli = cli_or_return!();
    let device = device();
    let dir = TempDir::new("cli-keccak");
    for &hash in &[Hash::Keccak256, Hash::Sha3_256] {
        let leaves = random_leaves(1000, 11);
        let path = dir.file("leaves", &leaf_bytes(&leaves));
        for &shape in Shape::ALL {
            let what = format!("{} {}", hash, shape);
            let builder =
                Builder::new(&device, &TreeConfig::new().hash(hash).shape(shape)).unwrap();
            let want = run(
                &cli,
                &cli_args("root", hash, shape, &[path.to_str().unwrap()]),
            );
            let root = roots_agree(&builder, &leaf_bytes(&leaves), &path, &what);
            assert_eq!(hex(&root), want, "{}", what);
        }
        // Data blocks hashed with the hash of the same name, blocks around the rate (136 bytes).
        let leaf_hash: LeafHash = hash.as_str().parse().unwrap();
        let data = random_bytes(10_000, 12);
        let data_path = dir.file("data", &data);
        for size in ["135", "136", "137"] {
            let what = format!("{} leaves of {} bytes", hash, size);
            let config = TreeConfig::new()
                .hash(hash)
                .leaf_size(size.parse().unwrap())
                .leaf_hash(leaf_hash);
            let builder = Builder::new(&device, &config).unwrap();
            let args = [
                "root",
                "--hash",
                hash.as_str(),
                "--leaf-size",
                size,
                "--leaf-hash",
                hash.as_str(),
                data_path.to_str().unwrap(),
            ];
            let want = run(&cli, &args);
            let root = roots_agree(&builder, &data, &data_path, &what);
            assert_eq!(hex(&root), want, "{}", what);
        }
    }
}

#[test]
fn data_blocks_equal_the_tool() {
    let cli = cli_or_return!();
    let device = device();
    let dir = TempDir::new("cli-blocks");
    let salt = [0x5a_u8, 0x17, 0x00, 0xff];
    let cases: Vec<(TreeConfig, Vec<&str>)> = vec![
        (
            TreeConfig::new().hash(Hash::Sha256).leaf_size(4096),
            vec!["--hash", "sha256", "--leaf-size", "4096"],
        ),
        (
            TreeConfig::new().leaf_size(1000),
            vec!["--leaf-size", "1000"],
        ),
        (
            TreeConfig::new()
                .shape(Shape::Zero)
                .leaf_size(512)
                .leaf_hash(LeafHash::Sha256)
                .salt(&salt),
            vec![
                "--pad",
                "zero",
                "--leaf-size",
                "512",
                "--leaf-hash",
                "sha256",
                "--salt",
                "5a1700ff",
            ],
        ),
    ];
    for (config, flags) in cases {
        let builder = Builder::new(&device, &config).unwrap();
        for &size in &[1usize, 511, 512, 513, 4096, 10_000, 100_000] {
            let data = random_bytes(size, size as u64);
            let path = dir.file("data", &data);
            let what = format!("{} bytes, {}", size, flags.join(" "));
            let mut args = vec!["root"];
            args.extend(&flags);
            args.push(path.to_str().unwrap());
            let want = run(&cli, &args);
            assert_eq!(
                hex(&roots_agree(&builder, &data, &path, &what)),
                want,
                "{}",
                what
            );
        }
    }
}

#[test]
fn k_ary_trees_and_their_proofs_equal_the_tool() {
    let cli = cli_or_return!();
    let device = device();
    let dir = TempDir::new("cli-kary");
    for &(hash, shape, arity) in &[
        (Hash::Sha256, Shape::Promote, 4u32),
        (Hash::Blake3, Shape::Zero, 16),
    ] {
        let builder = Builder::new(
            &device,
            &TreeConfig::new().hash(hash).shape(shape).arity(arity),
        )
        .unwrap();
        for &n in &[1usize, 3, 15, 16, 17, 1000] {
            let leaves = random_leaves(n, n as u64 * 3);
            let path = dir.file("leaves", &leaf_bytes(&leaves));
            let file = path.to_str().unwrap();
            let k = arity.to_string();
            let what = format!("{} {} arity {} n={}", hash, shape, arity, n);
            let want = run(&cli, &cli_args("root", hash, shape, &["--arity", &k, file]));
            let root = roots_agree(&builder, &leaf_bytes(&leaves), &path, &what);
            assert_eq!(hex(&root), want, "{}", what);
            let i = n / 2;
            let index = i.to_string();
            let json = run(
                &cli,
                &cli_args("proof", hash, shape, &["--arity", &k, "-i", &index, file]),
            );
            let proof = builder
                .build(Source::leaves(&leaves))
                .unwrap()
                .prove(i as u64)
                .unwrap();
            assert_eq!(proof.kind(), ProofKind::Kary, "{}", what);
            assert_eq!(proof.to_json().unwrap(), json, "{}: proof", what);
            Proof::from_json(&json)
                .unwrap()
                .verify(&[leaves[i]], &root)
                .unwrap();
        }
    }
}

#[test]
fn empty_inputs_have_a_root_only_where_the_tree_defines_one() {
    let cli = cli_or_return!();
    let device = device();
    let dir = TempDir::new("cli-empty");
    let path = dir.file("empty", b"");
    let file = path.to_str().unwrap();
    let rfc6962 = Builder::new(&device, &TreeConfig::new().hash(Hash::Rfc6962)).unwrap();
    let want = run(&cli, &["root", "--hash", "rfc6962", file]);
    assert_eq!(hex(&rfc6962.root(Source::Memory(&[])).unwrap()), want);
    assert_eq!(hex(&rfc6962.root_file(&path).unwrap()), want);
    let ssz = Builder::new(
        &device,
        &TreeConfig::new()
            .hash(Hash::Sha256)
            .shape(Shape::Zero)
            .depth(5),
    )
    .unwrap();
    let want = run(
        &cli,
        &[
            "root", "--hash", "sha256", "--pad", "zero", "--depth", "5", file,
        ],
    );
    assert_eq!(hex(&ssz.root(Source::Memory(&[])).unwrap()), want);
    let plain = Builder::new(&device, &TreeConfig::new()).unwrap();
    let e = plain.root(Source::Memory(&[])).unwrap_err();
    assert_eq!(e.status(), merklize::Status::Argument, "{}", e);
    assert!(!e.message().is_empty());
}

#[test]
fn kept_levels_and_streamed_roots() {
    let device: Device = device();
    let leaves = random_leaves(1000, 99);
    let all = Builder::new(&device, &TreeConfig::new())
        .unwrap()
        .build(Source::leaves(&leaves))
        .unwrap();
    assert_eq!(all.first_level(), 0);
    assert_eq!(all.level(0).unwrap(), &leaves[..]);
    assert_eq!(all.levels().unwrap().len() as u32, all.depth() + 1);
    assert_eq!(all.node(all.depth(), 0).unwrap(), all.root());

    let upper = Builder::new(&device, &TreeConfig::new().keep(Keep::FromLevel(3))).unwrap();
    let tree = upper.build(Source::leaves(&leaves)).unwrap();
    assert_eq!(tree.root(), all.root());
    assert_eq!(tree.first_level(), 3);
    assert_eq!(tree.level(3).unwrap(), all.level(3).unwrap());
    let e = tree.level(2).unwrap_err();
    assert!(e.message().contains("was not kept"), "{}", e);
    assert!(tree.prove(0).unwrap_err().message().contains("every level"));

    let dir = TempDir::new("kept");
    let path = dir.file("leaves", &leaf_bytes(&leaves));
    let root_only = Builder::new(&device, &TreeConfig::new().keep(Keep::RootOnly)).unwrap();
    let streamed = root_only.build(Source::path(&path)).unwrap();
    assert_eq!(streamed.root(), all.root());
    assert_eq!(streamed.leaf_count(), 1000);
    assert!(streamed.level(0).is_err());
}
