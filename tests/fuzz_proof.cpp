// SPDX-License-Identifier: Apache-2.0 OR MIT
// libFuzzer harness for the proof decoders: each input is decoded as a JSON and a binary
// inclusion proof and multiproof, and every proof that decodes is verified and encoded again.
// Built with clang -fsanitize=fuzzer,address,undefined (tests/CMakeLists.txt), so a crash, an
// out-of-bounds access, undefined behaviour, a leak or an input that runs past its time or
// memory limit is a finding; ctest runs it briefly from the seeds in tests/fuzz_corpus/:
//   merklize_fuzz_proof NEW_INPUTS_DIR tests/fuzz_corpus -max_total_time=20
// A decoder may refuse an input only with merklize::error; a verifier must answer, never throw;
// a proof that decodes must encode to the same proof.
#include <merklize/proofs/proof.hpp>

#include <cstdint>
#include <cstdlib>
#include <optional>
#include <string>
#include <vector>

namespace {

// Stops the run, as libFuzzer does on a crash, where an invariant fails.
void require(bool holds) {
  if (!holds) std::abort();
}

// The 32 bytes of the input from `offset` (wrapping around), as a leaf or a root.
merklize::digest digest_from(const std::uint8_t *data, std::size_t size, std::size_t offset) {
  merklize::digest d{};
  for (std::size_t i = 0; size && i < d.size(); ++i)
    d[i] = data[(offset + i) % size];
  return d;
}

void check(const merklize::inclusion_proof &proof, const std::uint8_t *data, std::size_t size) {
  merklize::verify(proof, digest_from(data, size, 0), digest_from(data, size, 32));
  require(merklize::inclusion_proof_from_json(merklize::to_json(proof)) == proof);
  require(merklize::inclusion_proof_from_binary(merklize::to_binary(proof)) == proof);
}

void check(const merklize::multiproof &proof, const std::uint8_t *data, std::size_t size) {
  // As many leaves as indices, unless that is more than the input could describe.
  if (proof.indices.size() <= size) {
    std::vector<merklize::digest> leaves;
    for (std::size_t k = 0; k < proof.indices.size(); ++k)
      leaves.push_back(digest_from(data, size, k));
    merklize::verify(proof, leaves, digest_from(data, size, 32));
  }
  merklize::verify(proof, {}, digest_from(data, size, 32));
  require(merklize::multiproof_from_json(merklize::to_json(proof)) == proof);
  require(merklize::multiproof_from_binary(merklize::to_binary(proof)) == proof);
}

// Decodes with `decode` and checks what decodes. A merklize::error from the decoder is a
// refusal; any other exception, or any from the checks, escapes and is a finding.
template <class Decode>
void try_decoding(Decode decode, const std::uint8_t *data, std::size_t size) {
  std::optional<decltype(decode())> proof;
  try {
    proof = decode();
  } catch (const merklize::error &) {
    return;
  }
  check(*proof, data, size);
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t *data, std::size_t size) {
  const std::string text(reinterpret_cast<const char *>(data), size);
  try_decoding([&] { return merklize::inclusion_proof_from_json(text); }, data, size);
  try_decoding([&] { return merklize::multiproof_from_json(text); }, data, size);
  try_decoding([&] { return merklize::inclusion_proof_from_binary(data, size); }, data, size);
  try_decoding([&] { return merklize::multiproof_from_binary(data, size); }, data, size);
  return 0;
}
