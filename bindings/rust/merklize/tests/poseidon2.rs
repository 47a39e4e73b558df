// SPDX-License-Identifier: Apache-2.0 OR MIT
//! The Poseidon2 hashes of field elements: their roots of canonical leaves equal the merklize
//! tool's (itself held to tests/poseidon2_model.py, an independent model) at awkward sizes, and a
//! leaf with a limb of p or more is refused, naming the leaf, wherever leaves come in.
//! (cli_trees.rs also holds their roots and proofs to the tool's, from every source.)

mod common;

use common::commands::{cli, run};
use common::{device, hex, leaf_bytes, leaves_for, TempDir};
use merklize::{Builder, DeviceTree, Hash, Shape, Source, Status, TreeConfig};

const POSEIDON2: &[Hash] = &[
    Hash::Poseidon2BabyBear,
    Hash::Poseidon2KoalaBear,
    Hash::Poseidon2Goldilocks,
    Hash::Poseidon2Bn254,
];

#[test]
fn the_library_lists_every_poseidon2_hash() {
    let names = merklize::hash_names();
    for hash in POSEIDON2 {
        assert!(
            names.iter().any(|n| n == hash.as_str()),
            "{} in {:?}",
            hash,
            names
        );
        assert_eq!(hash.as_str().parse::<Hash>().unwrap(), *hash);
    }
}

#[test]
fn roots_of_canonical_leaves_equal_the_tool() {
    let cli = match cli() {
        Some(cli) => cli,
        None => return,
    };
    let device = device();
    let dir = TempDir::new("poseidon2");
    for (k, &hash) in POSEIDON2.iter().enumerate() {
        for &shape in Shape::ALL {
            let builder =
                Builder::new(&device, &TreeConfig::new().hash(hash).shape(shape)).unwrap();
            for n in [1usize, 2, 3, 7, 8, 9, 255, 256, 257] {
                let leaves = leaves_for(hash, n, (k * 100 + n) as u64);
                let path = dir.file("leaves", &leaf_bytes(&leaves));
                let want = run(
                    &cli,
                    &[
                        "root".to_string(),
                        "--hash".into(),
                        hash.to_string(),
                        "--pad".into(),
                        shape.to_string(),
                        path.to_str().unwrap().into(),
                    ],
                );
                let root = builder.root(Source::leaves(&leaves)).unwrap();
                assert_eq!(hex(&root), want, "{} {} n={}", hash, shape, n);
                assert_eq!(
                    builder.root_file(&path).unwrap(),
                    root,
                    "{} n={}: path",
                    hash,
                    n
                );
            }
        }
    }
}

/// The error must be an argument error naming leaf 2 and saying why.
fn refused<T>(result: merklize::Result<T>, what: &str) {
    let e = result.err().unwrap_or_else(|| panic!("{}: accepted", what));
    assert_eq!(e.status(), Status::Argument, "{}: {}", what, e);
    assert!(
        e.message().contains("leaf 2, ") && e.message().contains("is not a canonical"),
        "{}: {}",
        what,
        e.message()
    );
}

#[test]
fn a_non_canonical_leaf_is_refused_naming_it() {
    let device = device();
    let dir = TempDir::new("poseidon2-refused");
    for &hash in POSEIDON2 {
        let leaves = leaves_for(hash, 3, 9);
        let mut bad = leaves.clone();
        bad[2][24..].fill(0xff); // the last limb (BN254: the value's top bytes) of p or more
        let path = dir.file("bad", &leaf_bytes(&bad));
        let builder = Builder::new(&device, &TreeConfig::new().hash(hash)).unwrap();
        let what = |how: &str| format!("{} {}", hash, how);
        refused(builder.root(Source::leaves(&bad)), &what("root"));
        refused(builder.root_file(&path), &what("root of a path"));
        refused(builder.build(Source::leaves(&bad)), &what("build"));
        refused(builder.roots_many(&bad, 3), &what("roots_many"));
        refused(DeviceTree::new(&builder, &bad), &what("device tree"));

        let tree = builder.build(Source::leaves(&leaves)).unwrap();
        let proof = tree.prove(2).unwrap();
        proof.verify(&[leaves[2]], &tree.root()).unwrap();
        let e = proof.verify(&[bad[2]], &tree.root()).unwrap_err();
        assert_eq!(e.status(), Status::InvalidProof, "{}: {}", hash, e);
        assert!(
            e.message().contains("is not a canonical"),
            "{}: {}",
            hash,
            e
        );
    }
}
