// SPDX-License-Identifier: Apache-2.0 OR MIT
//! Proofs: round trips through JSON and bytes, multiproofs, consistency proofs (against the
//! tool's), and tampered or malformed proofs refused with a reason, each verdict the same as the
//! tool's `merklize verify`.

mod common;

use std::collections::HashSet;
use std::process::Command;

use common::commands::{cli, run};
use common::{device, hex, leaf_bytes, leaves_for, random_leaves, TempDir};
use merklize::{Builder, Hash, Proof, ProofKind, Shape, Source, Status, Tree, TreeConfig};

fn tree(hash: Hash, leaves: &[[u8; 32]]) -> Tree {
    let builder = Builder::new(&device(), &TreeConfig::new().hash(hash)).unwrap();
    builder.build(Source::leaves(leaves)).unwrap()
}

/// The proof's verdict must be `Err(InvalidProof)` with a reason.
fn refused(result: merklize::Result<()>, what: &str) -> String {
    let e = result.expect_err(what);
    assert_eq!(e.status(), Status::InvalidProof, "{}: {}", what, e);
    assert!(
        e.message().starts_with("invalid proof: ") && e.message().len() > 15,
        "{}: {:?}",
        what,
        e.message()
    );
    e.message().to_string()
}

/// `merklize verify`'s verdict on the proof must be `accepted` (where the tool is given).
fn tool_agrees(json: &str, leaf: &[u8; 32], root: &[u8; 32], accepted: bool) {
    let cli = match std::env::var_os("MERKLIZE_CLI") {
        Some(cli) => cli,
        None => return,
    };
    let dir = TempDir::new("verify");
    let path = dir.file("proof.json", json.as_bytes());
    let output = Command::new(cli)
        .arg("verify")
        .arg(&path)
        .arg(hex(leaf))
        .arg(hex(root))
        .output()
        .unwrap();
    assert_eq!(
        output.status.success(),
        accepted,
        "merklize verify: {}",
        String::from_utf8_lossy(&output.stderr)
    );
}

#[test]
fn inclusion_proofs_round_trip_and_tampered_ones_are_refused_as_the_tool_refuses_them() {
    for &hash in Hash::ALL {
        let leaves = leaves_for(hash, 300, 1);
        let tree = tree(hash, &leaves);
        let root = tree.root();
        let proof = tree.prove(137).unwrap();
        assert_eq!(proof.kind(), ProofKind::Inclusion);
        assert_eq!(proof.leaf_count(), 300);
        assert_eq!(proof.indices(), &[137]);
        // Every node the proof carries is a node of the tree.
        let nodes: HashSet<[u8; 32]> = tree.levels().unwrap().concat().into_iter().collect();
        assert!(proof.nodes().iter().all(|n| nodes.contains(n)), "{}", hash);
        assert_eq!(proof.nodes().len(), 9, "{}: one sibling a level of 9", hash);

        let json = proof.to_json().unwrap();
        let bytes = proof.to_bytes().unwrap();
        for decoded in [
            Proof::from_json(&json).unwrap(),
            Proof::from_bytes(&bytes).unwrap(),
        ] {
            assert_eq!(decoded.to_json().unwrap(), json);
            assert_eq!(decoded.to_bytes().unwrap(), bytes);
            decoded.verify(&[leaves[137]], &root).unwrap();
        }
        tool_agrees(&json, &leaves[137], &root, true);

        // The wrong leaf, the wrong root, a sibling changed, the index changed: refused, as the
        // tool refuses them.
        let mut other_root = root;
        other_root[0] ^= 1;
        refused(proof.verify(&[leaves[138]], &root), "another leaf");
        refused(proof.verify(&[leaves[137]], &other_root), "another root");
        tool_agrees(&json, &leaves[138], &root, false);
        tool_agrees(&json, &leaves[137], &other_root, false);
        let sibling = hex(&proof.nodes()[4]);
        let mut changed = sibling.clone().into_bytes();
        changed[10] = if changed[10] == b'0' { b'1' } else { b'0' };
        let tampered = json.replace(&sibling, std::str::from_utf8(&changed).unwrap());
        assert_ne!(tampered, json);
        refused(
            Proof::from_json(&tampered)
                .unwrap()
                .verify(&[leaves[137]], &root),
            "a changed sibling",
        );
        tool_agrees(&tampered, &leaves[137], &root, false);
        let moved = json.replace("\"index\":137", "\"index\":136");
        assert_ne!(moved, json);
        refused(
            Proof::from_json(&moved)
                .unwrap()
                .verify(&[leaves[137]], &root),
            "another index",
        );
        tool_agrees(&moved, &leaves[137], &root, false);
        let mut flipped = bytes.clone();
        let last = flipped.len() - 1;
        flipped[last] ^= 0x80;
        refused(
            Proof::from_bytes(&flipped)
                .unwrap()
                .verify(&[leaves[137]], &root),
            "a flipped bit",
        );
    }
}

#[test]
fn multiproofs_prove_their_leaves_sorted_and_refuse_any_changed_one() {
    let leaves = random_leaves(100, 2);
    let tree = tree(Hash::Sha256, &leaves);
    let root = tree.root();
    let proof = tree.prove_multi(&[99, 5, 3, 5]).unwrap();
    assert_eq!(proof.kind(), ProofKind::Multi);
    assert_eq!(proof.indices(), &[3, 5, 99]);
    let proven = [leaves[3], leaves[5], leaves[99]];
    proof.verify(&proven, &root).unwrap();
    for decoded in [
        Proof::from_json(&proof.to_json().unwrap()).unwrap(),
        Proof::from_bytes(&proof.to_bytes().unwrap()).unwrap(),
    ] {
        assert_eq!(decoded.indices(), proof.indices());
        decoded.verify(&proven, &root).unwrap();
    }
    for k in 0..proven.len() {
        let mut changed = proven;
        changed[k][31] ^= 1;
        refused(
            proof.verify(&changed, &root),
            "a changed leaf of a multiproof",
        );
    }
    let e = proof.verify(&proven[..2], &root).unwrap_err();
    assert_eq!(e.status(), Status::Argument);
    assert!(e.message().contains("one leaf per proven index"), "{}", e);
    assert_eq!(
        tree.prove_multi(&[]).unwrap_err().status(),
        Status::Argument
    );
    assert!(tree
        .prove_multi(&[100])
        .unwrap_err()
        .message()
        .contains("100"));
}

#[test]
fn consistency_proofs_equal_the_tool_s_and_verify_against_the_old_tree() {
    let leaves = random_leaves(1000, 3);
    let new = tree(Hash::Rfc6962, &leaves);
    let dir = TempDir::new("consistency");
    let path = dir.file("leaves", &leaf_bytes(&leaves));
    for &m in &[1usize, 2, 500, 511, 999, 1000] {
        let old = tree(Hash::Rfc6962, &leaves[..m]);
        let proof = new.prove_consistency(m as u64).unwrap();
        assert_eq!(proof.kind(), ProofKind::Consistency);
        assert_eq!(proof.indices(), &[m as u64], "the old size");
        assert_eq!(proof.leaf_count(), 1000);
        if let Some(cli) = cli() {
            let size = m.to_string();
            let want = run(
                &cli,
                &[
                    "consistency",
                    "--hash",
                    "rfc6962",
                    "--old-size",
                    &size,
                    path.to_str().unwrap(),
                ],
            );
            // The tool prints both tree heads, then the proof.
            let heads = format!(
                "old tree head: {} leaves, root {}\nnew tree head: 1000 leaves, root {}\n",
                m,
                hex(&old.root()),
                hex(&new.root())
            );
            assert_eq!(
                format!("{}{}", heads, proof.to_json().unwrap()),
                want,
                "old size {}",
                m
            );
        }
        for decoded in [
            Proof::from_json(&proof.to_json().unwrap()).unwrap(),
            Proof::from_bytes(&proof.to_bytes().unwrap()).unwrap(),
        ] {
            decoded
                .verify_consistency(&old.root(), &new.root())
                .unwrap();
        }
        if m < 1000 {
            let other = tree(Hash::Rfc6962, &leaves[1..=m]);
            refused(
                proof.verify_consistency(&other.root(), &new.root()),
                "another old tree",
            );
        }
        let e = proof.verify(&[leaves[0]], &new.root()).unwrap_err();
        assert_eq!(e.status(), Status::Argument, "{}", e);
    }
    let inclusion = new.prove(0).unwrap();
    let e = inclusion
        .verify_consistency(&new.root(), &new.root())
        .unwrap_err();
    assert!(e.message().contains("not a consistency proof"), "{}", e);
    assert!(new.prove_consistency(1001).is_err());
}

#[test]
fn k_ary_proofs_have_json_only() {
    let leaves = random_leaves(50, 4);
    let builder = Builder::new(&device(), &TreeConfig::new().hash(Hash::Sha256).arity(8)).unwrap();
    let tree = builder.build(Source::leaves(&leaves)).unwrap();
    let proof = tree.prove(20).unwrap();
    assert_eq!(proof.kind(), ProofKind::Kary);
    Proof::from_json(&proof.to_json().unwrap())
        .unwrap()
        .verify(&[leaves[20]], &tree.root())
        .unwrap();
    refused(
        proof.verify(&[leaves[21]], &tree.root()),
        "another leaf of a k-ary tree",
    );
    let e = proof.to_bytes().unwrap_err();
    assert_eq!(e.status(), Status::Argument);
    assert!(e.message().contains("JSON encoding only"), "{}", e);
}

#[test]
fn malformed_proofs_are_decode_errors_naming_the_problem() {
    for text in [
        "",
        "{",
        "[1,2]",
        "{\"format\":\"merklize-proof\",\"version\":1,\"kind\":\"nonsense\"}",
    ] {
        let e = Proof::from_json(text).unwrap_err();
        assert_eq!(e.status(), Status::Decode, "{:?}: {}", text, e);
        assert!(!e.message().is_empty());
    }
    let leaves = random_leaves(9, 5);
    let bytes = tree(Hash::Blake3, &leaves)
        .prove(3)
        .unwrap()
        .to_bytes()
        .unwrap();
    for bad in [
        &bytes[..bytes.len() - 1],
        &bytes[..5],
        b"MKLQ\x01\x01".as_ref(),
        &[][..],
    ] {
        let e = Proof::from_bytes(bad).unwrap_err();
        assert_eq!(e.status(), Status::Decode, "{:?}: {}", bad, e);
        assert!(!e.message().is_empty());
    }
    let mut longer = bytes.clone();
    longer.push(0);
    assert_eq!(
        Proof::from_bytes(&longer).unwrap_err().status(),
        Status::Decode
    );
}

#[test]
fn ssz_list_proofs_end_with_the_length_and_have_no_multiproof() {
    let leaves = random_leaves(5, 6);
    let config = TreeConfig::new()
        .hash(Hash::Sha256)
        .shape(Shape::Zero)
        .depth(4)
        .mix_in_length(5);
    let tree = Builder::new(&device(), &config)
        .unwrap()
        .build(Source::leaves(&leaves))
        .unwrap();
    let proof = tree.prove(4).unwrap();
    let mut length = [0u8; 32];
    length[0] = 5;
    assert_eq!(proof.nodes().last(), Some(&length), "the length chunk last");
    proof.verify(&[leaves[4]], &tree.root()).unwrap();
    assert!(tree
        .prove_multi(&[1, 2])
        .unwrap_err()
        .message()
        .contains("no length chunk"));
}
