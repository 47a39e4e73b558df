// SPDX-License-Identifier: Apache-2.0 OR MIT
//! The crate against tests/vectors: merkle.json's roots and levels for every hash and shape it
//! holds (its leaves HASH(i as 8 bytes little-endian), made here), and BLAKE3's official
//! vectors in its three modes with extended output.

mod common;

use common::hashes::vector_leaf;
use common::json::Json;
use common::{device, hex, vector_path};
use merklize::{Blake3Mode, Builder, Hash, Shape, Source, TreeConfig};

#[test]
fn merkle_json_roots_and_levels() {
    let text =
        std::fs::read_to_string(vector_path("merkle.json")).expect("tests/vectors/merkle.json");
    let vectors = Json::parse(&text);
    let device = device();
    let mut checked = 0;
    for case in vectors.at("cases").items() {
        let (hash, shape) = (case.at("hash").text(), case.at("pad").text());
        let n = case.at("n").number() as u64;
        if n > 1 << 16 && cfg!(debug_assertions) {
            continue; // 2^20 leaves made in an unoptimised test: left to release builds
        }
        let config = TreeConfig::new()
            .hash(hash.parse::<Hash>().unwrap())
            .shape(shape.parse::<Shape>().unwrap());
        let builder = Builder::new(&device, &config).unwrap();
        let leaves: Vec<[u8; 32]> = (0..n).map(|i| vector_leaf(hash, i)).collect();
        let tree = builder.build(Source::leaves(&leaves)).unwrap();
        let what = format!("{} {} n={}", hash, shape, n);
        assert_eq!(hex(&tree.root()), case.at("root").text(), "{}: root", what);
        assert_eq!(tree.leaf_count(), n, "{}", what);
        assert_eq!(
            hex(&builder.root(Source::leaves(&leaves)).unwrap()),
            case.at("root").text(),
            "{}: streamed",
            what
        );
        if let Some(levels) = case.get("levels") {
            let levels = levels.items();
            assert_eq!(tree.depth() as usize + 1, levels.len(), "{}: depth", what);
            for (k, level) in levels.iter().enumerate() {
                // The vectors hold shape zero's levels padded with zero leaves to a full tree; a
                // tree holds its nodes over the input's leaves, the padding implied.
                let want: Vec<&str> = level.items().iter().map(Json::text).collect();
                let got: Vec<String> = tree
                    .level(k as u32)
                    .unwrap()
                    .iter()
                    .map(|d| hex(d))
                    .collect();
                let real = ((n - 1) >> k) as usize + 1; // ceil(n / 2^k)
                assert_eq!(got, want[..real], "{}: level {}", what, k);
            }
        }
        checked += 1;
    }
    assert!(checked >= 150, "{} cases checked", checked);
}

#[test]
fn blake3_official_vectors_in_every_mode() {
    let text =
        std::fs::read_to_string(vector_path("blake3_official.json")).expect("blake3_official.json");
    let vectors = Json::parse(&text);
    let key: [u8; 32] = vectors
        .at("key")
        .text()
        .as_bytes()
        .try_into()
        .expect("a 32-byte key");
    let context = vectors.at("context_string").text();
    let device = device();
    let cases = vectors.at("cases").items();
    for case in cases {
        let len = case.at("input_len").number() as usize;
        let input: Vec<u8> = (0..len).map(|i| (i % 251) as u8).collect();
        let modes = [
            ("hash", Blake3Mode::Hash),
            ("keyed_hash", Blake3Mode::Keyed(&key)),
            ("derive_key", Blake3Mode::DeriveKey(context)),
        ];
        for (name, mode) in modes {
            let want = case.at(name).text();
            let mut out = vec![0u8; want.len() / 2];
            device
                .blake3_xof(mode, Source::Memory(&input), &mut out)
                .unwrap();
            assert_eq!(hex(&out), want, "{} of {} bytes", name, len);
            let digest = device.blake3_with(mode, Source::Memory(&input)).unwrap();
            assert_eq!(
                hex(&digest),
                &want[..64],
                "{} of {} bytes, 32 bytes out",
                name,
                len
            );
        }
    }
    assert!(cases.len() >= 30);
}

/// The host's BLAKE3 in pieces (`Blake3Hasher`) in every mode, from every seek, its clones going
/// their own way; and the rs_merkle-style `Hasher` folding a tree as `merklize root` builds it.
#[test]
fn blake3_hasher_and_rs_merkle_style_hasher() {
    use merklize::rs_merkle::{Blake3, Hasher};
    use merklize::Blake3Hasher;
    let text =
        std::fs::read_to_string(vector_path("blake3_official.json")).expect("blake3_official.json");
    let vectors = Json::parse(&text);
    let key: [u8; 32] = vectors.at("key").text().as_bytes().try_into().unwrap();
    let context = vectors.at("context_string").text();
    for case in vectors.at("cases").items() {
        let len = case.at("input_len").number() as usize;
        let input: Vec<u8> = (0..len).map(|i| (i % 251) as u8).collect();
        for (name, mode) in [
            ("hash", Blake3Mode::Hash),
            ("keyed_hash", Blake3Mode::Keyed(&key)),
            ("derive_key", Blake3Mode::DeriveKey(context)),
        ] {
            let want = case.at(name).text();
            let mut hasher = Blake3Hasher::with(mode).unwrap();
            for piece in input.chunks(1000) {
                hasher.update(piece);
            }
            let twin = hasher.clone();
            hasher.update(b"more");
            let mut out = vec![0u8; want.len() / 2 - 10];
            twin.finalize_xof(10, &mut out);
            assert_eq!(
                hex(&out),
                &want[20..],
                "{} of {} bytes from byte 10",
                name,
                len
            );
            assert_eq!(hex(&twin.finalize()), &want[..64]);
        }
    }
    // rs_merkle's fold over 13 leaves: pairs hashed, a lone node moved up.
    let leaves: Vec<[u8; 32]> = (0..13u8).map(|i| Blake3::hash(&[i])).collect();
    let mut level = leaves.clone();
    while level.len() > 1 {
        level = level
            .chunks(2)
            .map(|pair| Blake3::concat_and_hash(&pair[0], pair.get(1)))
            .collect();
    }
    let tree = Builder::new(
        &device(),
        &TreeConfig::new().hash(Hash::Blake3).shape(Shape::Promote),
    )
    .unwrap()
    .build(Source::leaves(&leaves))
    .unwrap();
    assert_eq!(level[0], tree.root());
    assert_eq!(Blake3::hash_size(), 32);
}
