// SPDX-License-Identifier: Apache-2.0 OR MIT
//! DeviceTree: trees kept on the device at 1, 2, 3, 255, 256 and 257 leaves, updated by batches
//! of one leaf, the last leaf, every leaf and repeats (the last value wins); after each, the
//! root, every level and the multiproof equal a fresh build's of the updated leaves, and the
//! SHA-256 root the one computed here. Trees grown by appends through 1, 2, 3, 2^k - 1, 2^k and
//! 2^k + 1 leaves equal fresh builds (an RFC 6962 log the root computed here), with consistency
//! proofs from every earlier size equal to a fresh tree's and verified. Trees of arity k: the
//! same against fresh builds, and update_proved's k-ary multiproof (ProofKind::KaryMulti)
//! verified and equal to prove_multi's of a fresh build. Refused updates and appends leave the
//! tree as it was.

mod common;

use common::device;
use common::hashes::sha256_of;
use common::random_leaves;
use merklize::{Builder, DeviceTree, Hash, ProofKind, Shape, Source, Status, TreeConfig};

/// RFC 6962's MTH over leaf hashes, computed here: SHA-256(0x01 || left || right), the left
/// subtree the largest power of two below n.
fn rfc6962_root(leaves: &[[u8; 32]]) -> [u8; 32] {
    if leaves.len() == 1 {
        return leaves[0];
    }
    let below = leaves.len() - 1; // k is its highest bit
    let k = 1usize << (usize::BITS - 1 - below.leading_zeros());
    sha256_of(&[
        &[1u8],
        &rfc6962_root(&leaves[..k]),
        &rfc6962_root(&leaves[k..]),
    ])
}

/// The SHA-256 tree of shape promote, computed here.
fn sha256_root(leaves: &[[u8; 32]]) -> [u8; 32] {
    let mut level = leaves.to_vec();
    while level.len() > 1 {
        level = level
            .chunks(2)
            .map(|p| {
                if p.len() == 2 {
                    sha256_of(&[&p[0], &p[1]])
                } else {
                    p[0]
                }
            })
            .collect();
    }
    level[0]
}

fn check(builder: &Builder, tree: &DeviceTree, leaves: &[[u8; 32]], hash: Hash) {
    let fresh = builder.build(Source::leaves(leaves)).unwrap();
    assert_eq!(tree.root(), fresh.root());
    if hash == Hash::Sha256 {
        assert_eq!(tree.root(), sha256_root(leaves));
    }
    assert_eq!(tree.leaf_count(), leaves.len() as u64);
    assert_eq!(tree.depth(), fresh.depth());
    for (k, level) in tree.levels().unwrap().iter().enumerate() {
        assert_eq!(&level[..], fresh.level(k as u32).unwrap(), "level {}", k);
    }
    let last = leaves.len() as u64 - 1;
    assert_eq!(
        tree.prove(last).unwrap().to_json().unwrap(),
        fresh.prove(last).unwrap().to_json().unwrap()
    );
}

#[test]
fn updates_equal_fresh_builds() {
    let configs = [
        (Hash::Sha256, TreeConfig::new().hash(Hash::Sha256)),
        (
            Hash::Blake3,
            TreeConfig::new()
                .hash(Hash::Blake3)
                .shape(Shape::Zero)
                .depth(10),
        ),
    ];
    for (hash, config) in configs.iter() {
        let builder = Builder::new(&device(), config).unwrap();
        for &n in &[1usize, 2, 3, 255, 256, 257] {
            let mut leaves = random_leaves(n, n as u64);
            let mut tree = DeviceTree::new(&builder, &leaves).unwrap();
            check(&builder, &tree, &leaves, *hash);
            let every: Vec<u64> = (0..n as u64).rev().collect();
            let batches = [
                vec![0],
                vec![n as u64 - 1],
                every,
                vec![0, n as u64 / 2, 0, n as u64 - 1, 0],
            ];
            for (k, indices) in batches.iter().enumerate() {
                let values = random_leaves(indices.len(), 100 + k as u64);
                for (&i, v) in indices.iter().zip(&values) {
                    leaves[i as usize] = *v; // in order: a repeated index ends with its last value
                }
                let root = if k % 2 == 0 {
                    tree.update(indices, &values).unwrap()
                } else {
                    let (root, proof) = tree.update_proved(indices, &values).unwrap();
                    let fresh = builder.build(Source::leaves(&leaves)).unwrap();
                    let want = fresh.prove_multi(indices).unwrap();
                    assert_eq!(proof.to_json().unwrap(), want.to_json().unwrap());
                    root
                };
                assert_eq!(root, tree.root());
                check(&builder, &tree, &leaves, *hash);
            }
        }
    }
}

#[test]
fn refused_updates_leave_the_tree_unchanged() {
    let builder = Builder::new(&device(), &TreeConfig::new().hash(Hash::Sha256)).unwrap();
    let leaves = random_leaves(257, 7);
    let mut tree = DeviceTree::new(&builder, &leaves).unwrap();
    drop(builder); // the tree outlives it
    let before = tree.root();
    let e = tree.update(&[3, 257], &[[1; 32], [2; 32]]).unwrap_err();
    assert_eq!(e.status(), Status::Argument);
    assert!(e.message().contains("leaf index 257"), "{}", e);
    let e = tree.update_proved(&[1, 2], &[[1; 32]]).unwrap_err();
    assert_eq!(e.status(), Status::Argument);
    assert!(e.message().contains("2 indices but 1 leaves"), "{}", e);
    assert_eq!(tree.prove(257).unwrap_err().status(), Status::Argument);
    assert_eq!(
        tree.level(tree.depth() + 1).unwrap_err().status(),
        Status::Argument
    );
    assert_eq!(tree.root(), before);
    assert_eq!(tree.level(0).unwrap(), leaves);
    assert_eq!(tree.update(&[], &[]).unwrap(), before);
}

#[test]
fn refused_trees() {
    let builder = Builder::new(&device(), &TreeConfig::new()).unwrap();
    let e = DeviceTree::from_bytes(&builder, &[0; 33]).unwrap_err();
    assert_eq!(e.status(), Status::Argument);
    assert!(DeviceTree::new(&builder, &[]).is_err());
}

#[test]
fn trees_of_arity_k_equal_fresh_builds() {
    for (arity, shape) in [(4, Shape::Promote), (16, Shape::Zero)] {
        let config = TreeConfig::new()
            .hash(Hash::Blake3)
            .shape(shape)
            .arity(arity);
        let builder = Builder::new(&device(), &config).unwrap();
        for n in [1usize, 2, arity as usize + 1, 300] {
            let mut leaves = random_leaves(n, n as u64);
            let mut tree = DeviceTree::new(&builder, &leaves).unwrap();
            check(&builder, &tree, &leaves, Hash::Blake3);
            let values = random_leaves(3, 36);
            let indices = [n as u64 - 1, 0, n as u64 - 1]; // the last value wins
            for (i, v) in indices.iter().zip(&values) {
                leaves[*i as usize] = *v;
            }
            tree.update(&indices, &values).unwrap();
            check(&builder, &tree, &leaves, Hash::Blake3);
            update_proved_at_arity_k(&builder, &mut tree, &mut leaves);
            let more = random_leaves(arity as usize + 1, 37);
            tree.append(&more).unwrap();
            leaves.extend_from_slice(&more);
            check(&builder, &tree, &leaves, Hash::Blake3);
            let e = tree.prove_consistency(1).unwrap_err();
            assert!(e.message().contains("arity"), "{}", e);
        }
    }
}

/// update_proved at arity k of a batch with repeats (the last value wins): a k-ary multiproof
/// that verifies under the new root, not with another leaf, and equals prove_multi's of a tree
/// built over the updated leaves.
fn update_proved_at_arity_k(builder: &Builder, tree: &mut DeviceTree, leaves: &mut [[u8; 32]]) {
    let n = leaves.len() as u64;
    let indices = [n - 1, 0, n / 2, 0];
    let values = random_leaves(indices.len(), 39);
    for (i, v) in indices.iter().zip(&values) {
        leaves[*i as usize] = *v;
    }
    let (root, proof) = tree.update_proved(&indices, &values).unwrap();
    assert_eq!(proof.kind(), ProofKind::KaryMulti);
    let mut shown: Vec<[u8; 32]> = proof
        .indices()
        .iter()
        .map(|&i| leaves[i as usize])
        .collect();
    proof.verify(&shown, &root).unwrap();
    shown[0][0] ^= 1;
    assert_eq!(
        proof.verify(&shown, &root).unwrap_err().status(),
        Status::InvalidProof
    );
    let fresh = builder.build(Source::leaves(leaves)).unwrap();
    assert_eq!(root, fresh.root());
    let want = fresh.prove_multi(&indices).unwrap();
    assert_eq!(proof.to_json().unwrap(), want.to_json().unwrap());
    check(builder, tree, leaves, Hash::Blake3);
}

/// The sizes appended trees grow through, one append each.
const GROWTH: [usize; 12] = [1, 2, 3, 7, 8, 9, 15, 16, 17, 255, 256, 257];

#[test]
fn appends_equal_fresh_builds_with_consistency_proofs() {
    let configs = [
        (Hash::Rfc6962, TreeConfig::new().hash(Hash::Rfc6962)),
        (Hash::Sha256, TreeConfig::new().hash(Hash::Sha256)),
        (
            Hash::Keccak256,
            TreeConfig::new()
                .hash(Hash::Keccak256)
                .shape(Shape::Zero)
                .depth(9),
        ),
    ];
    for (hash, config) in configs.iter() {
        let builder = Builder::new(&device(), config).unwrap();
        let leaves = random_leaves(GROWTH[GROWTH.len() - 1], 33);
        let mut tree = DeviceTree::new(&builder, &leaves[..1]).unwrap();
        let mut roots = vec![(1usize, tree.root())];
        for &n in &GROWTH[1..] {
            let root = tree.append(&leaves[tree.leaf_count() as usize..n]).unwrap();
            assert_eq!(root, tree.root());
            check(&builder, &tree, &leaves[..n], *hash);
            roots.push((n, root));
            if *hash == Hash::Keccak256 {
                continue; // shape zero: no consistency proofs
            }
            if *hash == Hash::Rfc6962 {
                assert_eq!(root, rfc6962_root(&leaves[..n]), "{} leaves", n);
            }
            let fresh = builder.build(Source::leaves(&leaves[..n])).unwrap();
            for &(m, old) in &roots {
                let proof = tree.prove_consistency(m as u64).unwrap();
                let want = fresh.prove_consistency(m as u64).unwrap();
                assert_eq!(proof.to_json().unwrap(), want.to_json().unwrap());
                proof.verify_consistency(&old, &root).unwrap();
                if m < n {
                    assert!(proof.verify_consistency(&root, &root).is_err());
                }
            }
        }
    }
}

#[test]
fn refused_appends_leave_the_tree_unchanged() {
    let config = TreeConfig::new()
        .hash(Hash::Sha256)
        .shape(Shape::Zero)
        .depth(3);
    let builder = Builder::new(&device(), &config).unwrap();
    let leaves = random_leaves(5, 9);
    let mut tree = DeviceTree::new(&builder, &leaves).unwrap();
    let before = tree.root();
    let e = tree.append(&[[1; 32]; 4]).unwrap_err();
    assert_eq!(e.status(), Status::Argument);
    assert!(e.message().contains("would pass its 8"), "{}", e);
    let e = tree.prove_consistency(3).unwrap_err();
    assert!(e.message().contains("shape promote"), "{}", e);
    assert_eq!(tree.root(), before);
    assert_eq!(tree.leaf_count(), 5);
    assert_eq!(tree.level(0).unwrap(), leaves);
    assert_eq!(tree.append(&[]).unwrap(), before);
    let log = Builder::new(&device(), &TreeConfig::new().hash(Hash::Rfc6962)).unwrap();
    let e = DeviceTree::new(&log, &leaves)
        .unwrap()
        .prove_consistency(6)
        .unwrap_err();
    assert!(e.message().contains("is more than the tree's 5"), "{}", e);
}
