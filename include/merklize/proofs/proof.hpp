// SPDX-License-Identifier: Apache-2.0 OR MIT
// Inclusion proofs, multiproofs and consistency proofs (consistency.hpp) of merklize trees: made
// from a host tree, verified on the host, stored in a versioned binary or JSON encoding
// (docs/PROOFS.md). This header needs no OpenCL, so a verifier can be built without it;
// proof_device.hpp gathers and verifies batches of proofs on a device.
//
//   const merklize::inclusion_proof proof = merklize::prove(tree, 4);
//   const std::string stored = merklize::to_json(proof);
//   if (!merklize::verify(merklize::inclusion_proof_from_json(stored), leaf, root)) ...
//
// Verification takes untrusted proofs: any proof, however malformed, is rejected with a reason and
// never read out of bounds; decoding rejects malformed encodings with a merklize::error.
#pragma once

#include "consistency.hpp"
#include "consistency_encoding.hpp"
#include "proof_encoding.hpp"
#include "proof_model.hpp"
#include "proof_verify.hpp"
