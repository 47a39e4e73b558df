// SPDX-License-Identifier: Apache-2.0 OR MIT
// What merklize's SSZ proofs by generalized index (proofs/ssz_gindex.hpp) give for the oracle of
// tests/oracles/ssz_gindex_oracle.py (remerkleable and the consensus specs' helpers): it reads a
// tree of roots and sets of generalized indices as JSON, and prints, a line of JSON for each set,
// the root, the proven nodes, the helper nodes and whether merklize's verifier accepts the proof
// (and refuses it with one helper changed). No OpenCL.
//
//   ssz_gindex_dump FILE     FILE: {"tree": NODE, "sets": [[G, ...], ...]}, NODE one of
//                            {"chunk": HEX}, {"vector": [NODE, ...]},
//                            {"list": [NODE, ...], "limit": L[, "length": N]}
#include <merklize/core/json.hpp>
#include <merklize/proofs/ssz_gindex.hpp>

#include <fstream>
#include <iostream>
#include <sstream>
#include <string>

namespace {

namespace json = merklize::detail::json;
using merklize::ssz::ssz_tree;

const json::value *member(const json::value &v, const std::string &key) {
  for (const auto &[name, value] : v.members)
    if (name == key) return &value;
  return nullptr;
}

std::uint64_t number(const json::value &v) { return std::stoull(v.text); }

ssz_tree tree_of(const json::value &v) {
  if (const json::value *chunk = member(v, "chunk"))
    return ssz_tree::chunk(merklize::digest_from_hex(chunk->text));
  const bool list = member(v, "list") != nullptr;
  std::vector<ssz_tree> elements;
  for (const json::value &e : member(v, list ? "list" : "vector")->items)
    elements.push_back(tree_of(e));
  if (!list) return ssz_tree::vector(std::move(elements));
  const json::value *length = member(v, "length");
  return ssz_tree::list(std::move(elements), number(*member(v, "limit")),
                        length ? std::optional<std::uint64_t>(number(*length)) : std::nullopt);
}

std::string hex_list(const std::vector<merklize::digest> &nodes) {
  std::string out = "[";
  for (std::size_t i = 0; i < nodes.size(); ++i)
    out += (i ? ",\"" : "\"") + merklize::to_hex(nodes[i]) + "\"";
  return out + "]";
}

} // namespace

int main(int argc, char **argv) {
  if (argc != 2) {
    std::cerr << "usage: ssz_gindex_dump FILE\n";
    return 2;
  }
  std::ifstream in(argv[1]);
  std::stringstream text;
  text << in.rdbuf();
  const json::value doc = json::parse(text.str());
  const ssz_tree tree = tree_of(*member(doc, "tree"));
  const merklize::digest root = tree.root();
  for (const json::value &set : member(doc, "sets")->items) {
    std::vector<merklize::ssz::gindex> indices;
    for (const json::value &g : set.items)
      indices.push_back(number(g));
    merklize::ssz::gindex_proof proof = merklize::ssz::prove_gindices(tree, indices);
    const bool ok = static_cast<bool>(merklize::ssz::verify_gindices(proof, root));
    bool tampered_refused = true;
    if (!proof.helpers.empty()) {
      merklize::ssz::gindex_proof tampered = proof;
      tampered.helpers.back()[5] ^= 1;
      tampered_refused = !merklize::ssz::verify_gindices(tampered, root);
    }
    std::string g_list = "[";
    for (std::size_t i = 0; i < indices.size(); ++i)
      g_list += (i ? "," : "") + std::to_string(indices[i]);
    std::cout << "{\"root\":\"" << merklize::to_hex(root) << "\",\"indices\":" << g_list
              << "],\"leaves\":" << hex_list(proof.leaves)
              << ",\"helpers\":" << hex_list(proof.helpers) << ",\"ok\":" << (ok ? "true" : "false")
              << ",\"tampered_refused\":" << (tampered_refused ? "true" : "false") << "}\n";
  }
  return 0;
}
