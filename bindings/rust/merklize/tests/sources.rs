// SPDX-License-Identifier: Apache-2.0 OR MIT
//! Sources: memory, paths, descriptors read from their position, pipes, and the conversions.

mod common;

use std::fs::File;
use std::io::{Seek, SeekFrom};
use std::process::{Command, Stdio};

use common::{device, leaf_bytes, random_leaves, TempDir};
use merklize::{Builder, Source, TreeConfig};

#[test]
fn every_kind_of_source_gives_the_same_root() {
    let device = device();
    let builder = Builder::new(&device, &TreeConfig::new()).unwrap();
    let leaves = random_leaves(777, 4);
    let bytes = leaf_bytes(&leaves);
    let dir = TempDir::new("sources");
    let path = dir.file("leaves", &bytes);
    let want = builder.root(Source::leaves(&leaves)).unwrap();
    let file = File::open(&path).unwrap();
    let sources = [
        Source::from(&bytes),
        Source::from(&bytes[..]),
        Source::from(&leaves[..]),
        Source::from(path.as_path()),
        Source::path(&path),
        Source::path(path.to_str().unwrap()),
        Source::from(&file),
    ];
    for source in sources {
        assert_eq!(builder.root(source).unwrap(), want, "{:?}", source);
    }
}

#[test]
fn a_descriptor_is_read_from_its_position_and_a_pipe_works() {
    let device = device();
    let builder = Builder::new(&device, &TreeConfig::new()).unwrap();
    let leaves = random_leaves(300, 5);
    let dir = TempDir::new("fd");
    let path = dir.file("leaves", &leaf_bytes(&leaves));

    let mut file = File::open(&path).unwrap();
    file.seek(SeekFrom::Start(2 * 32)).unwrap();
    let tail = builder.root(Source::leaves(&leaves[2..])).unwrap();
    assert_eq!(builder.root_fd(&file).unwrap(), tail);

    let mut cat = Command::new("cat")
        .arg(&path)
        .stdout(Stdio::piped())
        .spawn()
        .expect("cat runs");
    let pipe = cat.stdout.take().unwrap();
    let tree = builder.build(Source::fd(&pipe)).unwrap();
    assert!(cat.wait().unwrap().success());
    assert_eq!(tree.root(), builder.root(Source::leaves(&leaves)).unwrap());
    assert_eq!(tree.level(0).unwrap(), &leaves[..]);
}
