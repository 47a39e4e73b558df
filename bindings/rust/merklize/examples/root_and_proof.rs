// SPDX-License-Identifier: Apache-2.0 OR MIT
// The root and an inclusion proof of a file of 32-byte leaves, as `merklize root --hash sha256
// FILE` and `merklize proof --hash sha256 -i 2 FILE` print them: cargo run --example
// root_and_proof -- FILE. The READMEs show it from `use` on; tests/readme.rs runs it.

use merklize::{hex, Builder, Device, Hash, Source, TreeConfig};

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let path = std::env::args()
        .nth(1)
        .ok_or("usage: root_and_proof FILE")?;
    let device = Device::open_default()?; // $MERKLIZE_DEVICE, else the first GPU, else any
    let builder = Builder::new(&device, &TreeConfig::new().hash(Hash::Sha256))?;

    let root = builder.root_file(&path)?; // streamed: any size
    println!("{}", hex::encode(&root));

    let proof = builder.prove(Source::path(&path), 2)?;
    println!("{}", proof.to_json()?);

    // Anyone holding leaf 2 and the root checks the proof, with no device.
    let leaf: [u8; 32] = std::fs::read(&path)?[64..96].try_into()?;
    proof.verify(&[leaf], &root)?; // Err(Status::InvalidProof) with the reason if not
    println!("leaf 2 is in the tree");
    Ok(())
}
