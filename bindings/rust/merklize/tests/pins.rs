// SPDX-License-Identifier: Apache-2.0 OR MIT
//! What a proof binds (docs/PROOFS.md, "What a proof binds"): a proof's header read back, and
//! proofs relabelled from real sha256 zero-shape trees (made here with the tests' SHA-256) as
//! shape promote, which verify unpinned, as the docs say, and are refused once the verifier pins
//! the shape. Then a Poseidon2 sibling with a limb raised by p is refused, naming it.

mod common;

use common::device;
use common::hashes::sha256_of;
use merklize::{Builder, Expectations, Hash, Proof, ProofKind, Shape, Source, Status, TreeConfig};

/// A sha256 zero-shape tree of n leaves (leaf i: SHA-256 of i's byte), every level.
fn zero_tree(n: usize) -> Vec<Vec<[u8; 32]>> {
    let mut levels = vec![(0..n)
        .map(|i| sha256_of(&[&[i as u8][..]]))
        .collect::<Vec<_>>()];
    let mut zero = [0u8; 32]; // the zero subtree of the level below's height
    while levels.last().unwrap().len() > 1 {
        let below = levels.last().unwrap();
        let level = (0..(below.len() + 1) / 2)
            .map(|i| {
                sha256_of(&[
                    &below[2 * i][..],
                    &below.get(2 * i + 1).unwrap_or(&zero)[..],
                ])
            })
            .collect();
        zero = sha256_of(&[&zero[..], &zero[..]]);
        levels.push(level);
    }
    levels
}

/// The promote proof of "leaf" `index` whose siblings are the zero tree's nodes where a promote
/// tree of its leaf count has them.
fn relabelled(levels: &[Vec<[u8; 32]>], index: usize) -> Proof {
    let depth = levels.len() - 1;
    let siblings: Vec<String> = (0..depth)
        .filter_map(|k| levels[k].get((index >> k) ^ 1))
        .map(|node| format!("\"{}\"", common::hex(node)))
        .collect();
    let text = format!(
        "{{\"format\":\"merklize-proof\",\"version\":1,\"kind\":\"inclusion\",\"hash\":\"sha256\",\
         \"shape\":\"promote\",\"leaf_count\":{},\"depth\":{},\"index\":{},\"siblings\":[{}]}}",
        levels[0].len(),
        depth,
        index,
        siblings.join(",")
    );
    Proof::from_json(&text).unwrap()
}

fn pinned_to(levels: &[Vec<[u8; 32]>]) -> Expectations {
    Expectations {
        kind: Some(ProofKind::Inclusion),
        hash: Some(Hash::Sha256),
        shape: Some(Shape::Zero),
        depth: Some((levels.len() - 1) as u32),
        arity: Some(2),
        leaf_count: Some(levels[0].len() as u64),
    }
}

#[test]
fn the_inner_node_of_three_leaves_passes_as_a_leaf_unpinned_only() {
    let levels = zero_tree(3);
    let root = levels[2][0];
    let forged = relabelled(&levels, 2);
    assert_eq!(
        (
            forged.hash(),
            forged.shape(),
            forged.depth(),
            forged.arity()
        ),
        ("sha256", "promote", 2, 2)
    );
    assert_eq!((forged.leaf_count(), forged.mixed_length()), (3, None));
    let inner = levels[1][1];
    forged
        .verify(&[inner], &root)
        .expect("the proof alone no longer accepts the forgery: update docs/PROOFS.md");
    let no_shape = Expectations {
        shape: None,
        ..pinned_to(&levels)
    };
    forged.verify_pinned(&[inner], &root, &no_shape).unwrap();
    let e = forged
        .verify_pinned(&[inner], &root, &pinned_to(&levels))
        .expect_err("the forgery verifies with the shape pinned");
    assert_eq!(e.status(), Status::InvalidProof);
    assert!(
        e.message()
            .contains("the proof is for shape promote, not zero"),
        "{}",
        e.message()
    );
}

#[test]
fn every_relabelled_forgery_of_small_trees_is_refused_pinned() {
    let mut forgeries = 0;
    for n in 1..=40 {
        let levels = zero_tree(n);
        let root = levels.last().unwrap()[0];
        for index in 0..n {
            let proof = relabelled(&levels, index);
            for level in levels.iter().take(levels.len() - 1).skip(1) {
                for node in level {
                    if proof.verify(&[*node], &root).is_ok() {
                        forgeries += 1;
                        assert!(
                            proof
                                .verify_pinned(&[*node], &root, &pinned_to(&levels))
                                .is_err(),
                            "{} leaves, index {}: a forgery verifies pinned",
                            n,
                            index
                        );
                    }
                }
            }
        }
    }
    // One in each tree whose last leaf is alone on its lowest levels and on none above them:
    // 3, 5, 7, 9, 13, 15, 17, 25, 29, 31 and 33 leaves.
    assert_eq!(forgeries, 11);
}

#[test]
fn each_pin_names_what_differs() {
    let levels = zero_tree(5);
    let proof = relabelled(&levels, 4); // promote, depth 3, 5 leaves
    let root = levels[3][0];
    let cases = [
        (
            Expectations {
                hash: Some(Hash::Blake3),
                ..Default::default()
            },
            "hash sha256, not blake3",
        ),
        (
            Expectations {
                shape: Some(Shape::Zero),
                ..Default::default()
            },
            "shape promote, not zero",
        ),
        (
            Expectations {
                depth: Some(4),
                ..Default::default()
            },
            "depth 3, not 4",
        ),
        (
            Expectations {
                arity: Some(4),
                ..Default::default()
            },
            "arity 2, not 4",
        ),
        (
            Expectations {
                leaf_count: Some(6),
                ..Default::default()
            },
            "5 leaves, not 6",
        ),
        (
            Expectations {
                kind: Some(ProofKind::Multi),
                ..Default::default()
            },
            "of kind inclusion, not multiproof",
        ),
    ];
    for (expect, reason) in cases {
        let e = proof
            .verify_pinned(&[levels[0][4]], &root, &expect)
            .unwrap_err();
        assert_eq!(e.status(), Status::InvalidProof, "{:?}", expect);
        assert!(
            e.message().contains(reason),
            "{:?}: {}",
            expect,
            e.message()
        );
    }
}

#[test]
fn a_poseidon2_sibling_raised_by_p_is_refused() {
    let mut leaves = [[0u8; 32]; 4];
    for (i, leaf) in leaves.iter_mut().enumerate() {
        leaf[0] = i as u8 + 1;
    }
    let builder =
        Builder::new(&device(), &TreeConfig::new().hash(Hash::Poseidon2BabyBear)).unwrap();
    let tree = builder.build(Source::leaves(&leaves)).unwrap();
    let proof = tree.prove(0).unwrap();
    proof.verify(&leaves[..1], &tree.root()).unwrap();
    let mut encoded = proof.to_bytes().unwrap();
    let first = encoded.len() - 32 * proof.nodes().len();
    let limb = u32::from_le_bytes(encoded[first..first + 4].try_into().unwrap()) + 2013265921;
    encoded[first..first + 4].copy_from_slice(&limb.to_le_bytes());
    let raised = Proof::from_bytes(&encoded).unwrap();
    let e = raised.verify(&leaves[..1], &tree.root()).unwrap_err();
    assert_eq!(e.status(), Status::InvalidProof);
    assert!(
        e.message()
            .contains(&format!("sibling 0, limb 0 ({})", limb)),
        "{}",
        e.message()
    );
}
