// SPDX-License-Identifier: Apache-2.0 OR MIT
//! The formats against their own tools: dm-verity against `veritysetup format --no-superblock`
//! (root hash and hash device), fs-verity against `fsverity digest` (digest and Merkle tree),
//! Bao outboards against tests/bao_model.py (an independent Python model) and b3sum; each
//! skipped, saying so, where its tool is not installed; and all three against the merklize tool.

mod common;

use std::path::Path;

use common::commands::{available, cli, run};
use common::{device, hex, random_bytes, TempDir};
use merklize::{Source, Status, VerityConfig};

/// A tool's stdout, the test failing with its stderr if it fails.
fn tool(program: &str, args: &[String]) -> String {
    run(program, args)
}

/// Whether the tool at `path` is installed; says which package has it where not.
fn installed(path: &str, package: &str) -> bool {
    let have = Path::new(path).exists();
    if !have {
        eprintln!(
            "SKIPPED the comparison with {}: not installed (Debian's {})",
            path, package
        );
    }
    have
}

fn salt_arg(salt: &[u8]) -> String {
    if salt.is_empty() {
        "-".to_string()
    } else {
        hex(salt)
    }
}

#[test]
fn dm_verity_equals_veritysetup_and_the_tool() {
    let veritysetup = "/usr/sbin/veritysetup";
    let have = installed(veritysetup, "cryptsetup-bin");
    let device = device();
    let dir = TempDir::new("dm-verity");
    let salt = random_bytes(32, 5);
    for &(data_block, hash_block, salted) in &[(4096u32, 4096u32, false), (1024, 512, true)] {
        let salt: &[u8] = if salted { &salt } else { &[] };
        let config = VerityConfig::new()
            .data_block_size(data_block)
            .hash_block_size(hash_block)
            .salt(salt);
        for &blocks in &[1usize, 3, 130] {
            let data = random_bytes(blocks * data_block as usize, blocks as u64);
            let path = dir.file("data", &data);
            let what = format!(
                "{} blocks of {}, hash blocks of {}",
                blocks, data_block, hash_block
            );
            let (root, tree) = device.dm_verity(&config, Source::Memory(&data)).unwrap();
            assert_eq!(
                device.dm_verity_root(&config, Source::path(&path)).unwrap(),
                root,
                "{}",
                what
            );
            if have {
                let hashes = dir.path("hashes");
                let _ = std::fs::remove_file(&hashes);
                let out = tool(
                    veritysetup,
                    &[
                        "format".into(),
                        "--no-superblock".into(),
                        format!("--data-block-size={}", data_block),
                        format!("--hash-block-size={}", hash_block),
                        format!("--salt={}", salt_arg(salt)),
                        path.display().to_string(),
                        hashes.display().to_string(),
                    ],
                );
                let at = out
                    .find("Root hash:")
                    .expect("veritysetup prints the root hash");
                assert_eq!(out[at + 10..].trim_start()[..64], hex(&root), "{}", what);
                assert_eq!(
                    &tree[..],
                    &std::fs::read(&hashes).unwrap()[..],
                    "{}: hash device",
                    what
                );
            }
            if let Some(cli) = cli() {
                let out = dir.path("cli-hashes");
                let args = vec![
                    "root".to_string(),
                    "--format".into(),
                    "dm-verity".into(),
                    "--no-superblock".into(),
                    format!("--data-block-size={}", data_block),
                    format!("--hash-block-size={}", hash_block),
                    "--hash-output".into(),
                    out.display().to_string(),
                    path.display().to_string(),
                ];
                let mut args = args;
                // No salt is "-": without --salt the tool picks a random one, as veritysetup.
                let salt_arg = if salted { hex(salt) } else { "-".to_string() };
                args.insert(1, format!("--salt={}", salt_arg));
                // The tool prints veritysetup's report; its "Root hash:" line holds the root.
                let report = run(&cli, &args);
                let printed = report
                    .lines()
                    .find(|line| line.starts_with("Root hash:"))
                    .and_then(|line| line.split_whitespace().last());
                assert_eq!(printed, Some(hex(&root).as_str()), "{}: merklize root", what);
                assert_eq!(
                    &tree[..],
                    &std::fs::read(&out).unwrap()[..],
                    "{}: merklize's hash device",
                    what
                );
            }
        }
    }
    let e = device
        .dm_verity_root(&VerityConfig::new(), Source::Memory(&[0u8; 100]))
        .unwrap_err();
    assert_eq!(e.status(), Status::Argument, "{}", e);
    assert!(e.message().contains("4096"), "{}", e);
}

#[test]
fn fs_verity_equals_fsverity_digest_and_the_tool() {
    let fsverity = "/usr/bin/fsverity";
    let have = installed(fsverity, "fsverity");
    let device = device();
    let dir = TempDir::new("fs-verity");
    let salt = random_bytes(16, 6);
    for &(block, salted) in &[(4096u32, false), (1024, true)] {
        let salt: &[u8] = if salted { &salt } else { &[] };
        let config = VerityConfig::new().hash_block_size(block).salt(salt);
        for &size in &[0usize, 1, 4096, 4097, 300_000] {
            let data = random_bytes(size, size as u64 + 3);
            let path = dir.file("data", &data);
            let what = format!("{} bytes, blocks of {}", size, block);
            let (digest, tree) = device.fs_verity(&config, Source::Memory(&data)).unwrap();
            assert_eq!(
                device
                    .fs_verity_digest(&config, Source::path(&path))
                    .unwrap(),
                digest,
                "{}",
                what
            );
            if have {
                let out = dir.path("tree");
                let mut args = vec![
                    "digest".to_string(),
                    path.display().to_string(),
                    format!("--block-size={}", block),
                    format!("--out-merkle-tree={}", out.display()),
                ];
                if salted {
                    args.push(format!("--salt={}", hex(salt)));
                }
                let printed = tool(fsverity, &args);
                assert_eq!(
                    printed.split(' ').next().unwrap(),
                    format!("sha256:{}", hex(&digest)),
                    "{}",
                    what
                );
                assert_eq!(
                    &tree[..],
                    &std::fs::read(&out).unwrap()[..],
                    "{}: Merkle tree",
                    what
                );
            }
            if let Some(cli) = cli() {
                let mut args = vec![
                    "root".to_string(),
                    "--format".into(),
                    "fs-verity".into(),
                    format!("--block-size={}", block),
                    path.display().to_string(),
                ];
                if salted {
                    args.insert(1, format!("--salt={}", hex(salt)));
                }
                let want = format!("sha256:{} {}", hex(&digest), path.display()); // as fsverity prints it
                assert_eq!(run(&cli, &args), want, "{}: merklize root", what);
            }
        }
    }
}

#[test]
fn bao_outboards_equal_the_python_model_and_b3sum() {
    let model = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../../tests/bao_model.py");
    let python = available("python3") && model.exists();
    let b3sum = available("b3sum");
    let device = device();
    let dir = TempDir::new("bao");
    for &size in &[0usize, 1, 1024, 1025, 4096, 200_000] {
        let data = random_bytes(size, size as u64 + 11);
        let path = dir.file("data", &data);
        let (root, outboard) = device.bao_outboard(Source::Memory(&data)).unwrap();
        let (file_root, file_outboard) = device.bao_outboard(Source::path(&path)).unwrap();
        assert_eq!(
            (file_root, &file_outboard[..]),
            (root, &outboard[..]),
            "{} bytes from a path",
            size
        );
        assert_eq!(
            &outboard[..8],
            &(size as u64).to_le_bytes(),
            "the outboard starts with the length"
        );
        if b3sum {
            assert_eq!(
                run("b3sum", &["--no-names".as_ref(), path.as_os_str()]),
                hex(&root),
                "{} bytes",
                size
            );
        }
        if python {
            let out = dir.path("model-obao");
            let printed = run(
                "python3",
                &[model.as_os_str(), path.as_os_str(), out.as_os_str()],
            );
            assert_eq!(
                &printed[..64],
                hex(&root),
                "{} bytes: the model's root",
                size
            );
            assert_eq!(
                &outboard[..],
                &std::fs::read(&out).unwrap()[..],
                "{} bytes: the model's outboard",
                size
            );
        }
        if let Some(cli) = cli() {
            let out = dir.path("cli-obao");
            let printed = run(
                &cli,
                &[
                    "root".as_ref(),
                    "--format".as_ref(),
                    "bao-outboard".as_ref(),
                    "--outboard".as_ref(),
                    out.as_os_str(),
                    path.as_os_str(),
                ],
            );
            assert_eq!(printed, hex(&root));
            assert_eq!(&outboard[..], &std::fs::read(&out).unwrap()[..]);
        }
    }
}
