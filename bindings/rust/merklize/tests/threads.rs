// SPDX-License-Identifier: Apache-2.0 OR MIT
//! Threads: devices and builders shared by several threads (libmerklize serialises their
//! calls), trees and proofs read from others, devices opened from several threads at once.

mod common;

use std::sync::Arc;

use common::{device, random_leaves};
use merklize::{Builder, Bytes, Device, Hash, Proof, Source, Tree, TreeConfig};

fn send_and_sync<T: Send + Sync>() {}

#[test]
fn handles_are_send_and_sync_as_the_c_contract_allows() {
    send_and_sync::<Device>();
    send_and_sync::<Builder>();
    send_and_sync::<Tree>();
    send_and_sync::<Proof>();
    send_and_sync::<Bytes>();
    send_and_sync::<merklize::Error>();
}

#[test]
fn one_builder_builds_from_several_threads_at_once() {
    let device = device();
    let builder = Builder::new(&device, &TreeConfig::new().hash(Hash::Sha256)).unwrap();
    let inputs: Vec<Vec<[u8; 32]>> = (0..12)
        .map(|k| random_leaves(100 + 37 * k, k as u64))
        .collect();
    let want: Vec<[u8; 32]> = inputs
        .iter()
        .map(|l| builder.root(Source::leaves(l)).unwrap())
        .collect();
    std::thread::scope(|scope| {
        for t in 0..4 {
            let (builder, device, inputs, want) = (&builder, &device, &inputs, &want);
            scope.spawn(move || {
                for round in 0..3 {
                    for k in (t..inputs.len()).step_by(4) {
                        let tree = builder.build(Source::leaves(&inputs[k])).unwrap();
                        assert_eq!(
                            tree.root(),
                            want[k],
                            "thread {} round {} input {}",
                            t,
                            round,
                            k
                        );
                        tree.prove(7)
                            .unwrap()
                            .verify(&[inputs[k][7]], &want[k])
                            .unwrap();
                        device.blake3(Source::Memory(b"abc")).unwrap();
                    }
                }
            });
        }
    });
}

#[test]
fn trees_and_proofs_are_read_from_other_threads_after_their_builder_and_device_are_gone() {
    let leaves = random_leaves(500, 9);
    let tree = {
        let device = device();
        let builder = Builder::new(&device, &TreeConfig::new()).unwrap();
        drop(device); // the builder keeps it alive
        builder.build(Source::leaves(&leaves)).unwrap()
    };
    let tree = Arc::new(tree);
    let handles: Vec<_> = (0..4)
        .map(|t| {
            let (tree, leaf) = (Arc::clone(&tree), leaves[t * 100]);
            std::thread::spawn(move || {
                assert_eq!(tree.level(0).unwrap()[t * 100], leaf);
                let proof = tree.prove((t * 100) as u64).unwrap();
                proof.verify(&[leaf], &tree.root()).unwrap();
                proof
            })
        })
        .collect();
    for (t, handle) in handles.into_iter().enumerate() {
        let proof = handle.join().unwrap();
        assert_eq!(proof.indices(), &[(t * 100) as u64]);
    }
}

#[test]
fn devices_open_from_several_threads_at_once() {
    let infos: Vec<_> = std::thread::scope(|scope| {
        let handles: Vec<_> = (0..6)
            .map(|_| scope.spawn(|| Device::open_default().and_then(|d| d.info())))
            .collect();
        handles
            .into_iter()
            .map(|h| h.join().unwrap().unwrap())
            .collect()
    });
    assert!(infos.windows(2).all(|w| w[0] == w[1]), "{:?}", infos);
}
