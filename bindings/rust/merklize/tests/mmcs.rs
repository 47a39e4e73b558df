// SPDX-License-Identifier: Apache-2.0 OR MIT
//! Mmcs (Plonky3's MerkleTreeMmcs): caps of BabyBear, KoalaBear and Goldilocks matrices of
//! several heights and widths equal to those tests/mmcs_model.py (the independent model of
//! Plonky3's rules) prints for the same elements; every row opens and verifies, and fails once
//! an element or a sibling changes; the refusals.

mod common;

use common::device;
use merklize::hex;
use merklize::{verify_matrix_opening, Element, Hash, Matrix, MatrixShape, Mmcs, Status};

/// Element i of matrix k: (1000003 (k + 1) i + 12345) mod p, as the model was given them.
fn elements<E: Element + TryFrom<u64>>(p: u64, k: u64, count: u64) -> Vec<E> {
    (0..count)
        .map(|i| {
            E::try_from((1000003 * (k + 1) * i + 12345) % p)
                .ok()
                .expect("fits")
        })
        .collect()
}

fn check<E: Element + TryFrom<u64>>(
    hash: Hash,
    p: u64,
    cap_height: u32,
    shapes: &[(u64, u64)],
    want: &[&str],
) {
    let data: Vec<Vec<E>> = shapes
        .iter()
        .enumerate()
        .map(|(k, &(h, w))| elements::<E>(p, k as u64, h * w))
        .collect();
    let matrices: Vec<Matrix<'_, E>> = data
        .iter()
        .zip(shapes)
        .map(|(e, &(height, width))| Matrix {
            elements: e,
            height,
            width,
        })
        .collect();
    let c = Mmcs::commit(&device(), hash, &matrices, cap_height).unwrap();
    let cap = c.cap().unwrap();
    let got: Vec<String> = cap.iter().map(|d| hex::encode(d)).collect();
    assert_eq!(got, want, "{:?}", hash);
    let indices: Vec<u64> = (0..c.height()).collect();
    let all = c.open(&indices).unwrap();
    let levels = all[0].path.len() as u32; // the cap's layer
    for drop in 1..=levels {
        let d = Mmcs::commit_dropping(&device(), hash, &matrices, cap_height, drop).unwrap();
        for (got, want) in d.open(&indices).unwrap().iter().zip(&all) {
            assert_eq!(
                (&got.rows, &got.path),
                (&want.rows, &want.path),
                "drop {}",
                drop
            );
        }
    }
    let refused = Mmcs::commit_dropping(&device(), hash, &matrices, cap_height, levels + 1);
    assert_eq!(refused.err().map(|e| e.status()), Some(Status::Argument));
    for mut o in all {
        c.verify(&o).unwrap();
        o.rows[0][0] = E::default();
        let changed = verify_matrix_opening(hash, cap_height, &cap, c.shapes(), &o);
        if data[0][(o.index * shapes[0].1) as usize] != E::default() {
            assert_eq!(changed.unwrap_err().status(), Status::InvalidProof);
        }
        o.rows[0][0] = data[0][(o.index * shapes[0].1) as usize];
        if let Some(sibling) = o.path.first_mut() {
            sibling[0] ^= 1;
            assert_eq!(c.verify(&o).unwrap_err().status(), Status::InvalidProof);
        }
    }
}

#[test]
fn caps_and_openings_equal_the_model() {
    check::<u32>(
        Hash::Poseidon2BabyBear,
        2013265921,
        0,
        &[(8, 7), (4, 25), (1, 1)],
        &["14a44e1381d9ff146b8790117848b00ddfc3710f9247c80ca8349a142e8fa104"],
    );
    check::<u32>(
        Hash::Poseidon2KoalaBear,
        2130706433,
        1,
        &[(3, 9)],
        &[
            "496a845d0b34844fb018ab69cff0cd0a11d065634629bf7485458d52f6b90902",
            "6276ec5bed924a7266f4e450ef5e11422e73d2404cc03e18a089fc0fc512cf17",
        ],
    );
    check::<u64>(
        Hash::Poseidon2Goldilocks,
        18446744069414584321,
        2,
        &[(5, 24), (3, 8)],
        &[
            "675ee7a6f49b9f979d5901959032aab4d13b1bbee0f9e1c3ad3abf940d2f187e",
            "ba29483ee764b2a42378d10beb7d1bcc7e57ef3fd98adf4d7b19d5149fae8293",
            "2bdb120adf947c430d9302b9559efdeb0cb69cea81d112c4e84fc4a561acd9a4",
            "0000000000000000000000000000000000000000000000000000000000000000",
        ],
    );
}

fn matrix(elements: &[u32], height: u64, width: u64) -> Matrix<'_, u32> {
    Matrix {
        elements,
        height,
        width,
    }
}

#[test]
fn refusals() {
    let d = device();
    let zeros = [0u32; 16];
    let mut bad = zeros;
    bad[5] = 2013265921; // p: row 2, column 1
    let cases: Vec<(Vec<Matrix<'_, u32>>, Hash, &str)> = vec![
        (
            vec![matrix(&bad, 8, 2)],
            Hash::Poseidon2BabyBear,
            "matrix 0, row 2, column 1",
        ),
        (
            vec![matrix(&zeros, 8, 2), matrix(&zeros[..7], 7, 1)],
            Hash::Poseidon2BabyBear,
            "height 7",
        ),
        (
            vec![matrix(&zeros, 8, 2)],
            Hash::Poseidon2Bn254,
            "no matrix commitment",
        ),
        (
            vec![matrix(&zeros, 8, 2)],
            Hash::Sha256,
            "not a hash over field elements",
        ),
        (
            vec![matrix(&zeros, 8, 2)],
            Hash::Poseidon2Goldilocks,
            "not the 4 of u32",
        ),
        (vec![], Hash::Poseidon2KoalaBear, "no matrices"),
        (
            vec![matrix(&zeros, 7, 2)],
            Hash::Poseidon2KoalaBear,
            "holds 16 elements",
        ),
    ];
    for (matrices, hash, want) in cases {
        let e = Mmcs::commit(&d, hash, &matrices, 0).unwrap_err();
        assert_eq!(e.status(), Status::Argument, "{}", e);
        assert!(e.to_string().contains(want), "{} lacks {:?}", e, want);
    }
    let c = Mmcs::commit(&d, Hash::Poseidon2BabyBear, &[matrix(&zeros, 8, 2)], 0).unwrap();
    assert_eq!(c.open(&[0, 8]).unwrap_err().status(), Status::Argument);
    let o = c.open(&[3]).unwrap().remove(0);
    let cap = c.cap().unwrap();
    let other = [MatrixShape {
        height: 8,
        width: 1,
    }];
    let e = verify_matrix_opening(Hash::Poseidon2BabyBear, 0, &cap, &other, &o).unwrap_err();
    assert_eq!(e.status(), Status::InvalidProof);
}
