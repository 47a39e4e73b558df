// SPDX-License-Identifier: Apache-2.0 OR MIT
//! A Rust program of someone else's, built outside the repository against an installed
//! libmerklize (tests/consumer/run.sh, as bindings/rust/README.md says): prints "merklize
//! VERSION" and the root of the leaves in the file it is given, as consumer.c does.

use merklize::{hex, Builder, Device, TreeConfig};

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let path = std::env::args().nth(1).ok_or("usage: consumer LEAVES_FILE")?;
    let device = Device::open_default()?;
    let builder = Builder::new(&device, &TreeConfig::new())?;
    let root = builder.root_file(&path)?;
    println!("merklize {}\n{}", merklize::version(), hex::encode(&root));
    Ok(())
}
