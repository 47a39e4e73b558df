// SPDX-License-Identifier: Apache-2.0 OR MIT
//! Many small trees at once ([`Builder::roots_many`]) against [`Builder::root`] of each run of
//! leaves and, for SHA-256, a tree of the tests' own SHA-256: every hash, both shapes and a fixed
//! depth, at awkward tree sizes and numbers of trees; and the refusals.

mod common;

use common::hashes::sha256_of;
use common::{device, random_leaves};
use merklize::{Builder, Hash, Shape, Source, Status, TreeConfig};

/// The SHA-256 tree of shape promote over `leaves`.
fn sha256_root(leaves: &[[u8; 32]]) -> [u8; 32] {
    let mut level = leaves.to_vec();
    while level.len() > 1 {
        level = level
            .chunks(2)
            .map(|pair| match pair {
                [left, right] => sha256_of(&[left, right]),
                [lone] => *lone,
                _ => unreachable!(),
            })
            .collect();
    }
    level[0]
}

#[test]
fn roots_many_equal_root_of_each_tree() {
    let device = device();
    let configs = [
        TreeConfig::new(),
        TreeConfig::new()
            .hash(Hash::Blake3Parent)
            .shape(Shape::Zero),
        TreeConfig::new().hash(Hash::Sha256),
        TreeConfig::new()
            .hash(Hash::Sha256)
            .shape(Shape::Zero)
            .depth(10),
        TreeConfig::new().hash(Hash::Rfc6962),
        TreeConfig::new().hash(Hash::Keccak256).shape(Shape::Zero),
        TreeConfig::new().hash(Hash::Sha3_256),
    ];
    for (c, config) in configs.iter().enumerate() {
        let builder = Builder::new(&device, config).unwrap();
        for n in [1usize, 2, 3, 7, 8, 9, 255, 256, 257] {
            for trees in [1usize, 2, 3] {
                let leaves = random_leaves(n * trees, (n * 7 + trees) as u64);
                let roots = builder.roots_many(&leaves, n as u64).unwrap();
                assert_eq!(roots.len(), trees);
                for (k, root) in roots.iter().enumerate() {
                    let run = &leaves[k * n..(k + 1) * n];
                    assert_eq!(
                        *root,
                        builder.root(Source::leaves(run)).unwrap(),
                        "config {} n={} tree {}",
                        c,
                        n,
                        k
                    );
                    if c == 2 {
                        assert_eq!(*root, sha256_root(run), "n={} tree {}", n, k);
                    }
                }
            }
        }
    }
}

#[test]
fn roots_many_refuse_what_is_no_whole_number_of_trees() {
    let builder = Builder::new(&device(), &TreeConfig::new().hash(Hash::Sha256)).unwrap();
    let bytes = vec![0u8; 320];
    for (leaves, tree_size, message) in [
        (&bytes[..], 0, "tree_size is 0"),
        (&bytes[..319], 5, "31 bytes left over"),
        (&bytes[..], 3, "3 trees and 1 leaves left over"),
    ] {
        let e = builder.roots_many_of_bytes(leaves, tree_size).unwrap_err();
        assert_eq!(e.status(), Status::Argument);
        assert!(e.to_string().contains(message), "{}", e);
    }
}
