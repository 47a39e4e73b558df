// SPDX-License-Identifier: Apache-2.0 OR MIT
//! SparseTree: at depth 8 against the dense tree of all 256 leaves computed here with SHA-256
//! (the rule: empty leaves are zero, a node the hash of its children), at depth 256 for sha256
//! and blake3 against its own proofs; batches of new, changed, repeated and deleted keys, values,
//! sizes, proofs of present and absent keys verified and refused once changed; refusals leave
//! the tree as it was.

mod common;

use common::device;
use common::hashes::sha256_of;
use common::random_leaves;
use merklize::{Hash, SparseTree, Status};

/// The depth-8 tree of 256 leaves, computed here: leaf k is key k's value, or zero.
fn dense_root(held: &[([u8; 32], [u8; 32])]) -> [u8; 32] {
    let mut level = vec![[0u8; 32]; 256];
    for (key, value) in held {
        level[key[31] as usize] = *value;
    }
    while level.len() > 1 {
        level = level
            .chunks(2)
            .map(|p| sha256_of(&[&p[0], &p[1]]))
            .collect();
    }
    level[0]
}

fn key8(k: u8) -> [u8; 32] {
    let mut key = [0u8; 32];
    key[31] = k;
    key
}

/// Every held key's value and proof, and an absent key's, against the tree's root.
fn check(tree: &SparseTree, held: &[([u8; 32], [u8; 32])], absent: [u8; 32]) {
    let root = tree.root().unwrap();
    let present = held.iter().filter(|(_, v)| *v != [0; 32]).count() as u64;
    assert_eq!(tree.size(), present);
    for (key, value) in held.iter().chain([(absent, [0u8; 32])].iter()) {
        assert_eq!(tree.value(key).unwrap(), *value);
        let proof = tree.prove(key).unwrap();
        assert_eq!(proof.value, *value);
        assert_eq!(proof.proves_absence(), *value == [0; 32]);
        assert_eq!(
            proof.siblings.len(),
            tree.prove(key).unwrap().depth as usize
        );
        proof.verify(&root).unwrap();
        let mut changed = proof.clone();
        changed.siblings.last_mut().unwrap()[0] ^= 1;
        assert_eq!(
            changed.verify(&root).unwrap_err().status(),
            Status::InvalidProof
        );
        let mut other = proof.clone();
        other.value[0] ^= 0x80;
        assert!(other.verify(&root).is_err());
    }
}

/// Sets keys[k] to values[k] in the held list (the last value wins).
fn hold(held: &mut Vec<([u8; 32], [u8; 32])>, keys: &[[u8; 32]], values: &[[u8; 32]]) {
    for (key, value) in keys.iter().zip(values) {
        match held.iter_mut().find(|(k, _)| k == key) {
            Some(entry) => entry.1 = *value,
            None => held.push((*key, *value)),
        }
    }
}

#[test]
fn depth_8_against_the_dense_tree() {
    let mut tree = SparseTree::new(&device(), Hash::Sha256, 8).unwrap();
    assert_eq!(tree.root().unwrap(), dense_root(&[]));
    let mut held = Vec::new();
    let values = random_leaves(5, 8);
    let keys = [key8(0), key8(255), key8(7), key8(128), key8(7)];
    let root = tree.update(&keys, &values).unwrap();
    hold(&mut held, &keys, &values);
    assert_eq!(root, dense_root(&held));
    check(&tree, &held, key8(9));
    let keys = [key8(255), key8(0), key8(200)];
    let values = [[0u8; 32], [5u8; 32], [6u8; 32]]; // 255 deleted, 0 changed, 200 new
    let root = tree.update(&keys, &values).unwrap();
    hold(&mut held, &keys, &values);
    assert_eq!(root, dense_root(&held));
    check(&tree, &held, key8(9));
}

#[test]
fn depth_256_against_its_proofs() {
    for hash in [Hash::Sha256, Hash::Blake3] {
        let mut tree = SparseTree::new(&device(), hash, 256).unwrap();
        let keys = random_leaves(6, 256);
        let values = random_leaves(6, 257);
        tree.update(&keys, &values).unwrap();
        let mut held = Vec::new();
        hold(&mut held, &keys, &values);
        check(&tree, &held, random_leaves(1, 999)[0]);
    }
}

#[test]
fn refusals_leave_the_tree_unchanged() {
    let mut tree = SparseTree::new(&device(), Hash::Sha256, 8).unwrap();
    let before = tree.update(&[key8(1)], &[[7; 32]]).unwrap();
    let mut past = [0u8; 32];
    past[30] = 1; // bit 8
    let e = tree
        .update(&[key8(2), past], &[[1; 32], [2; 32]])
        .unwrap_err();
    assert_eq!(e.status(), Status::Argument);
    assert!(e.message().contains("has bit 8 set"), "{}", e);
    let e = tree.update(&[key8(2)], &[]).unwrap_err();
    assert!(e.message().contains("1 keys but 0 values"), "{}", e);
    assert_eq!(tree.value(&past).unwrap_err().status(), Status::Argument);
    assert_eq!(tree.root().unwrap(), before);
    assert_eq!(tree.size(), 1);
    assert_eq!(tree.update(&[], &[]).unwrap(), before);
    for depth in [0, 257] {
        let e = SparseTree::new(&device(), Hash::Sha256, depth).unwrap_err();
        assert!(e.message().contains("depth"), "{}", e);
    }
    let mut short = tree.prove(&key8(1)).unwrap();
    short.siblings.pop();
    let e = short.verify(&before).unwrap_err();
    assert_eq!(e.status(), Status::Argument);
}
