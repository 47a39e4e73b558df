// SPDX-License-Identifier: Apache-2.0 OR MIT
//! The commitments other systems publish against the published data of
//! tests/vectors/commitments/ (OpenZeppelin's dump, Bitcoin's block 100000, Filecoin's zero-piece
//! CIDs), against a model of Bitcoin's rule written here, and against the merklize tool at
//! awkward sizes; bad input is refused with the status of its kind.

mod common;

use common::commands::{cli, run};
use common::hashes::sha256;
use common::json::Json;
use common::{device, hex, random_bytes, vector_path, TempDir};
use merklize::{filecoin_piece_cid, Source, Status};

fn vector(name: &str) -> Json {
    let path = vector_path(&format!("commitments/{}", name));
    Json::parse(&std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{:?}: {}", path, e)))
}

fn sha256d(data: &[u8]) -> [u8; 32] {
    sha256(&sha256(data))
}

/// Bitcoin's merkle root from its rule: SHA-256d of each pair, an odd level's last node paired
/// with itself.
fn bitcoin_model(txids: &[[u8; 32]]) -> [u8; 32] {
    let mut level = txids.to_vec();
    while level.len() > 1 {
        if level.len() % 2 == 1 {
            level.push(*level.last().unwrap());
        }
        level = level
            .chunks(2)
            .map(|pair| sha256d(&[pair[0], pair[1]].concat()))
            .collect();
    }
    level[0]
}

fn reversed(d: &[u8; 32]) -> [u8; 32] {
    let mut r = *d;
    r.reverse();
    r
}

#[test]
fn oz_standard_dump_and_values() {
    let doc = vector("oz/standard-v1.sorted.1_0_6.json");
    let text = doc.at("dump_verbatim_text").text();
    let device = device();
    let (root, dump) = device.oz_standard_tree(text, true).unwrap();
    assert_eq!(format!("0x{}", hex(&root)), doc.at("root").text());
    assert_eq!(format!("{}\n", dump), text, "the dump, byte for byte");
    for p in doc.at("derived_proofs").items() {
        let index = p.at("value_index").number() as u64;
        let proof = Json::parse(&device.oz_standard_proof(text, true, &[index]).unwrap());
        assert_eq!(proof.at("proof"), p.at("proof"));
    }
    let tool = match cli() {
        Some(tool) => tool,
        None => return,
    };
    let dir = TempDir::new("oz");
    let values: Vec<String> = (0..9u64)
        .map(|i| format!("[\"0x{:040x}\", \"{}\"]", i * 7919 + 1, i * 1_000_003))
        .collect();
    let json = format!(
        "{{\"leafEncoding\": [\"address\", \"uint256\"], \"values\": [{}]}}",
        values.join(",")
    );
    let path = dir.file("values.json", json.as_bytes());
    for sort in [true, false] {
        let mut args = vec!["root", "--format", "oz-standard"];
        if !sort {
            args.push("--no-sort-leaves");
        }
        let mut root_args = args.clone();
        root_args.push(path.to_str().unwrap());
        let root = device.oz_standard_root(&json, sort).unwrap();
        assert_eq!(format!("0x{}", hex(&root)), run(&tool, &root_args));
        args[0] = "proof";
        args.extend(["-i", "8,0,3", path.to_str().unwrap()]);
        assert_eq!(
            device.oz_standard_proof(&json, sort, &[8, 0, 3]).unwrap(),
            run(&tool, &args)
        );
    }
}

#[test]
fn bitcoin_block_model_and_cli() {
    let device = device();
    let block = vector("bitcoin/b100000.json");
    let lines: String = block
        .at("txids_display")
        .items()
        .iter()
        .map(|t| format!("{}\n", t.text()))
        .collect();
    let (root, mutated) = device
        .bitcoin_root(Source::from(lines.as_bytes()), true)
        .unwrap();
    assert_eq!(hex(&root), block.at("merkleroot_display").text());
    assert!(!mutated);
    let tool = cli();
    let dir = TempDir::new("bitcoin");
    for n in [1usize, 2, 3, 7, 8, 9, 255, 256, 257] {
        let bytes = random_bytes(32 * n, n as u64);
        let txids: Vec<[u8; 32]> = bytes.chunks(32).map(|c| c.try_into().unwrap()).collect();
        let (root, mutated) = device
            .bitcoin_root(Source::from(&bytes[..]), false)
            .unwrap();
        assert_eq!(root, bitcoin_model(&txids), "{} txids", n);
        assert!(!mutated);
        let display: String = txids
            .iter()
            .map(|t| format!("{}\n", hex(&reversed(t))))
            .collect();
        let (shown, _) = device
            .bitcoin_root(Source::from(display.as_bytes()), true)
            .unwrap();
        assert_eq!(shown, reversed(&root));
        if let Some(tool) = &tool {
            let path = dir.file("txids", &bytes);
            let index = (n / 2).to_string();
            let printed = run(
                tool,
                &[
                    "proof",
                    "--format",
                    "bitcoin",
                    "-i",
                    &index,
                    path.to_str().unwrap(),
                ],
            );
            let proof = device
                .bitcoin_proof(Source::path(&path), false, (n / 2) as u64)
                .unwrap();
            assert_eq!(proof, printed, "{} txids", n);
        }
    }
    let three = random_bytes(96, 3);
    let doubled = [&three[..], &three[64..]].concat();
    let (a, _) = device
        .bitcoin_root(Source::from(&three[..]), false)
        .unwrap();
    let (b, mutated) = device
        .bitcoin_root(Source::from(&doubled[..]), false)
        .unwrap();
    assert!(a == b && mutated, "CVE-2012-2459: the last txid twice");
}

#[test]
fn filecoin_zero_pieces_and_cli() {
    let device = device();
    for row in vector("filecoin/zero_comm.json")
        .at("piece_cid_examples")
        .at("rows")
        .items()
    {
        let zeros = vec![0u8; row.at("unpadded_zero_bytes").number() as usize];
        let (commitment, padded) = device.filecoin_commitment(Source::from(&zeros)).unwrap();
        assert_eq!(hex(&commitment), row.at("digest_hex").text());
        assert_eq!(padded as i128, row.at("padded_piece_size").number());
        assert_eq!(
            filecoin_piece_cid(&commitment).unwrap(),
            row.at("piece_cid").text()
        );
    }
    let tool = match cli() {
        Some(tool) => tool,
        None => return,
    };
    let dir = TempDir::new("filecoin");
    for size in [1usize, 126, 127, 128, 254, 255, 1016, 1017, 100_000] {
        let data = random_bytes(size, size as u64);
        let path = dir.file("piece", &data);
        let (commitment, _) = device.filecoin_commitment(Source::path(&path)).unwrap();
        let file = path.to_str().unwrap();
        assert_eq!(
            hex(&commitment),
            run(&tool, &["root", "--format", "filecoin-tree-d", file])
        );
        assert_eq!(
            filecoin_piece_cid(&commitment).unwrap(),
            run(
                &tool,
                &["root", "--format", "filecoin-tree-d", "--cid", file]
            )
        );
    }
}

#[test]
fn commitment_refusals() {
    let device = device();
    let e = device
        .oz_standard_tree("{\"leafEncoding\": [\"uint8\"], \"values\": [[256]]}", true)
        .unwrap_err();
    assert_eq!(e.status(), Status::Decode);
    assert!(e.message().contains("\"256\" does not fit uint8"), "{}", e);
    let e = device
        .oz_standard_root("{\"leafEncoding\": [", true)
        .unwrap_err();
    assert_eq!(e.status(), Status::Decode);
    let e = device
        .bitcoin_root(Source::from(&[0u8; 33][..]), false)
        .unwrap_err();
    assert_eq!(e.status(), Status::Argument);
    assert!(
        e.message().contains("not a whole number of 32-byte txids"),
        "{}",
        e
    );
    let e = device
        .bitcoin_root(Source::from(&b"zz\n"[..]), true)
        .unwrap_err();
    assert!(
        e.status() == Status::Argument && e.message().contains("not a txid"),
        "{}",
        e
    );
    let e = device
        .filecoin_commitment(Source::from(&[0u8; 0][..]))
        .unwrap_err();
    assert!(
        e.status() == Status::Argument && e.message().contains("no commitment"),
        "{}",
        e
    );
    let e = device.oz_standard_proof("{}", true, &[]).unwrap_err();
    assert_eq!(e.status(), Status::Argument);
}
