// SPDX-License-Identifier: Apache-2.0 OR MIT
// The host references of the commitments other systems publish (formats/pair_rules.hpp and the
// formats over it), against the published data of tests/vectors/commitments/ (README there):
// Filecoin's zero-piece commitments and piece CIDs, Bitcoin's blocks, OpenZeppelin's dumps; and
// the worked cases each rule's documents give. Built without OpenCL, sanitized.
#include "host_helpers.hpp"

#include <merklize/formats/bitcoin.hpp>
#include <merklize/formats/filecoin.hpp>
#include <merklize/formats/oz_values.hpp>

#include <catch2/catch.hpp>

#include <fstream>
#include <iterator>

#if defined(CL_VERSION_1_0)
#error "the formats' host references must not pull in the OpenCL headers"
#endif

using Catch::Matchers::Contains;
using merklize::digest;
namespace oz = merklize::oz;
namespace jsonv = merklize::detail::json;

namespace {

std::string read_text(const std::string &path) {
  std::ifstream in(path, std::ios::binary);
  REQUIRE(in);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

jsonv::value vector_doc(const std::string &name) {
  const std::string text = read_text(test::vector_path("commitments/" + name));
  jsonv::reader r(text, oz::max_json_bytes);
  jsonv::value v = jsonv::read_value(r);
  r.finish();
  return v;
}

const jsonv::value &at(const jsonv::value &object, const char *key) {
  const jsonv::value *found = oz::detail::member(object, key);
  REQUIRE(found != nullptr);
  return *found;
}

digest hex_digest(const std::string &hex) {
  return merklize::digest_from_hex(hex.compare(0, 2, "0x") == 0 ? hex.substr(2) : hex);
}

std::vector<std::uint8_t> zeros(std::size_t n) { return std::vector<std::uint8_t>(n, 0); }

// Fr32 written bit by bit from its statement: bit b of the 127-byte block is bit b - 254 q of
// chunk q = b / 254, the chunks' two top bits zero.
std::vector<std::uint8_t> fr32_bit_by_bit(const std::vector<std::uint8_t> &block) {
  std::vector<std::uint8_t> out(128, 0);
  for (unsigned b = 0; b < 1016; ++b) {
    const unsigned bit = block[b / 8] >> (b % 8) & 1u, q = b / 254, r = b % 254;
    out[32 * q + r / 8] = static_cast<std::uint8_t>(out[32 * q + r / 8] | bit << (r % 8));
  }
  return out;
}

} // namespace

TEST_CASE("Filecoin's zero-piece commitments, 128 bytes to 2 TiB", "[filecoin]") {
  const auto doc = vector_doc("filecoin/zero_comm.json");
  const auto &entries = at(doc, "entries").items;
  REQUIRE(entries.size() == 35);
  for (const auto &e : entries) {
    const unsigned log2 = static_cast<unsigned>(std::stoul(at(e, "log2_padded").text));
    CHECK(merklize::to_hex(merklize::filecoin::zero_piece_commitment(log2)) ==
          at(e, "comm_hex").text);
    if (log2 <= 16) { // the whole tree over zero data, from the data
      const auto data = zeros(std::stoul(at(e, "unpadded_piece_size").text));
      CHECK(merklize::to_hex(merklize::filecoin::piece_commitment(data.data(), data.size())) ==
            at(e, "comm_hex").text);
    }
  }
}

TEST_CASE("Filecoin's piece CIDs of zero data (go-fil-commp-hashhash testdata)", "[filecoin]") {
  const auto doc = vector_doc("filecoin/zero_comm.json");
  for (const auto &row : at(at(doc, "piece_cid_examples"), "rows").items) {
    const auto data = zeros(std::stoul(at(row, "unpadded_zero_bytes").text));
    const digest comm = merklize::filecoin::piece_commitment(data.data(), data.size());
    CHECK(merklize::to_hex(comm) == at(row, "digest_hex").text);
    CHECK(merklize::filecoin::padded_piece_size(data.size()) ==
          std::stoull(at(row, "padded_piece_size").text));
    CHECK(merklize::filecoin::piece_cid(comm) == at(row, "piece_cid").text);
  }
}

TEST_CASE("Fr32 padding puts 254 bits of data in each chunk", "[filecoin]") {
  for (int round = 0; round < 50; ++round) {
    const auto block = test::random_bytes(127);
    std::uint8_t out[128];
    merklize::filecoin::fr32_expand(block.data(), out);
    CHECK(std::vector<std::uint8_t>(out, out + 128) == fr32_bit_by_bit(block));
    for (int q = 0; q < 4; ++q)
      CHECK((out[32 * q + 31] & 0xC0) == 0);
  }
  using merklize::filecoin::padded_piece_size;
  CHECK(padded_piece_size(1) == 128);
  CHECK(padded_piece_size(127) == 128);
  CHECK(padded_piece_size(128) == 256);
  CHECK(padded_piece_size(254) == 256);
  CHECK(padded_piece_size(255) == 512);
  CHECK(padded_piece_size(127 * 1024 + 1) == 256 * 1024);
  CHECK_THROWS_WITH(padded_piece_size(0), Contains("no data"));
  CHECK_THROWS_WITH(padded_piece_size(~std::uint64_t(0)), Contains("2^62"));
}

TEST_CASE("Bitcoin's merkle roots of published blocks", "[bitcoin]") {
  for (const char *name : {"bitcoin/genesis.json", "bitcoin/b100000.json"}) {
    INFO(name);
    const auto doc = vector_doc(name);
    std::vector<digest> txids;
    const auto &display = at(doc, "txids_display").items;
    const auto &txs = at(doc, "tx_hex").items;
    REQUIRE(display.size() == txs.size());
    for (std::size_t i = 0; i < display.size(); ++i) {
      txids.push_back(merklize::bitcoin::reversed(hex_digest(display[i].text)));
      const auto tx = merklize::from_hex(txs[i].text);
      CHECK(merklize::sha256d(tx.data(), tx.size()) == txids.back()); // the txid itself
    }
    const auto tree = merklize::bitcoin::levels_of(txids);
    CHECK(!tree.mutated);
    CHECK(merklize::to_hex(merklize::bitcoin::reversed(tree.root())) ==
          at(doc, "merkleroot_display").text);
    const auto &derived = at(doc, "derived_internal_order");
    CHECK(merklize::to_hex(tree.root()) == at(derived, "root_internal_hex").text);
    const auto &levels = at(derived, "levels_internal_hex").items;
    for (std::size_t l = 0; l < levels.size(); ++l)
      for (std::size_t i = 0; i < levels[l].items.size(); ++i)
        CHECK(merklize::to_hex(tree.levels[l + 1][i]) == levels[l].items[i].text);
    for (std::uint64_t i = 0; i < txids.size(); ++i)
      CHECK(merklize::bitcoin::root_of(txids[i], merklize::bitcoin::prove(tree.levels, i)) ==
            tree.root());
  }
}

TEST_CASE("Bitcoin's odd levels pair the last node with itself (CVE-2012-2459)", "[bitcoin]") {
  using merklize::pair_hash;
  for (const std::uint64_t n : test::awkward_sizes(7)) {
    std::vector<digest> txids(n);
    const auto bytes = test::random_bytes(n * 32);
    std::memcpy(txids.data(), bytes.data(), bytes.size());
    const auto tree = merklize::bitcoin::levels_of(txids);
    // Worked by hand: one txid is its own root; three are H(H(a, b), H(c, c)).
    if (n == 1) CHECK(tree.root() == txids[0]);
    if (n == 3) {
      const auto ab = merklize::pair_node(pair_hash::sha256d, txids[0], txids[1]);
      const auto cc = merklize::pair_node(pair_hash::sha256d, txids[2], txids[2]);
      CHECK(tree.root() == merklize::pair_node(pair_hash::sha256d, ab, cc));
    }
    for (std::uint64_t i = 0; i < n; ++i) {
      const auto branch = merklize::bitcoin::prove(tree.levels, i);
      CHECK(merklize::bitcoin::root_of(txids[i], branch) == tree.root());
      auto wrong = txids[i];
      wrong[0] ^= 1;
      CHECK(merklize::bitcoin::root_of(wrong, branch) != tree.root());
    }
    if (n % 2 == 1 && n > 1) { // the list with its last txid twice has the same root
      auto doubled = txids;
      doubled.push_back(txids.back());
      const auto mutated = merklize::bitcoin::levels_of(doubled);
      CHECK(mutated.root() == tree.root());
      CHECK(mutated.mutated);
      CHECK(!tree.mutated);
    }
  }
  CHECK_THROWS_WITH(merklize::bitcoin::levels_of({}), Contains("at least one transaction"));
  CHECK_THROWS_WITH(merklize::bitcoin::prove(merklize::bitcoin::levels_of({digest{}}).levels, 1),
                    Contains("past the 1 txids"));
}

TEST_CASE("Bitcoin txids in display order, one a line", "[bitcoin]") {
  const std::string a(64, 'a'), b = "00" + std::string(62, 'F');
  const auto txids = merklize::bitcoin::parse_display_txids("  " + a + "\r\n\n" + b, "ids");
  REQUIRE(txids.size() == 2);
  CHECK(txids[1][31] == 0x00);
  CHECK(txids[1][0] == 0xff);
  CHECK_THROWS_WITH(merklize::bitcoin::parse_display_txids(a + "\nxyz\n", "ids"),
                    Contains("ids, line 2: not a txid"));
}

TEST_CASE("OpenZeppelin's dumps rebuilt, proven and written back", "[oz]") {
  for (const char *name : {"standard-v1.sorted.1_0_6.json", "standard-v1.unsorted.1_0_6.json",
                           "standard_snapshot_seed0_1.json", "standard_snapshot_seed0_2.json"}) {
    INFO(name);
    const auto doc = vector_doc(std::string("oz/") + name);
    const bool verbatim = oz::detail::member(doc, "dump_verbatim") != nullptr;
    const std::string dump_text = oz::value_json(at(doc, verbatim ? "dump_verbatim" : "dump"));
    const auto dump = oz::read_standard_json(dump_text, name);
    CHECK(dump.is_dump);
    const auto t = oz::standard_tree_of(dump, true, name, oz::make_tree);
    CHECK(oz::node_text(t.root()) == at(doc, "root").text);
    if (verbatim) { // as OpenZeppelin wrote it, byte for byte
      CHECK(oz::dump_json(t) == dump_text);
      CHECK(oz::dump_json(t) + "\n" == at(doc, "dump_verbatim_text").text);
    } else { // the snapshots' members are in another order: the same dump once read
      const auto again = oz::read_standard_json(oz::dump_json(t), name);
      CHECK(again.tree == dump.tree);
      CHECK(again.tree_index == dump.tree_index);
      CHECK(oz::value_json(again.values.back()) == oz::value_json(dump.values.back()));
    }
    for (const auto &p : at(doc, "derived_proofs").items) {
      const std::uint64_t v = std::stoull(at(p, "value_index").text);
      const auto proof = oz::get_proof(t.tree, t.tree_index[v]);
      CHECK(oz::nodes_json(proof) == oz::value_json(at(p, "proof")));
      CHECK(oz::process_proof(hex_digest(at(p, "leaf_hash").text), proof) == t.root());
    }
    // The same values without the tree, sorted as the file's name says: the same array.
    const bool sorted = std::string(name).find("unsorted") == std::string::npos &&
                        std::string(name).find("seed0_2") == std::string::npos;
    std::string values =
        "{\"leafEncoding\":" +
        oz::value_json(at(at(doc, verbatim ? "dump_verbatim" : "dump"), "leafEncoding")) +
        ",\"values\":[";
    for (std::size_t v = 0; v < t.values.size(); ++v)
      values += (v ? "," : "") + oz::value_json(t.values[v]);
    const auto rebuilt = oz::standard_tree_of(oz::read_standard_json(values + "]}", name), sorted,
                                              name, oz::make_tree);
    CHECK(rebuilt.tree == t.tree);
    CHECK(rebuilt.tree_index == t.tree_index);
  }
}

TEST_CASE("OpenZeppelin's README example: ABI encoding, leaves, root", "[oz]") {
  const auto doc = vector_doc("oz/readme_example.COMPUTED.json");
  const std::string text = "{\"leafEncoding\":" + oz::value_json(at(doc, "leafEncoding")) +
                           ",\"values\":" + oz::value_json(at(doc, "values")) + "}";
  const auto in = oz::read_standard_json(text, "readme");
  for (std::size_t v = 0; v < in.values.size(); ++v) {
    const auto encoded = merklize::abi::encode(in.types, in.values[v], "values");
    CHECK("0x" + merklize::to_hex(encoded.data(), encoded.size()) ==
          at(doc, "abi_encoded").items[v].text);
  }
  const auto hashes = oz::leaf_hashes(in, "readme");
  CHECK(oz::nodes_json(hashes) == oz::value_json(at(doc, "leaf_hashes")));
  const auto t = oz::standard_tree_of(in, true, "readme", oz::make_tree);
  CHECK(oz::node_text(t.root()) == at(doc, "root").text);
}

TEST_CASE("OpenZeppelin multiproofs verify, for every subset of small trees", "[oz]") {
  for (const std::uint64_t n : test::awkward_sizes(3)) {
    std::vector<digest> leaves(n);
    const auto bytes = test::random_bytes(n * 32);
    std::memcpy(leaves.data(), bytes.data(), bytes.size());
    const auto tree = oz::make_tree(leaves);
    for (std::uint64_t subset = 0; subset < (1ull << n); ++subset) {
      std::vector<std::uint64_t> indices;
      for (std::uint64_t k = 0; k < n; ++k)
        if (subset >> k & 1) indices.push_back(2 * n - 2 - k);
      const auto m = oz::get_multiproof(tree, indices);
      std::vector<digest> proven;
      for (const auto i : m.tree_indices)
        proven.push_back(tree[i]);
      CHECK(oz::process_multiproof(proven, m.proof, m.flags) == tree.front());
      if (!m.proof.empty()) {
        auto bad = m.proof;
        bad.back()[5] ^= 0x10;
        CHECK(oz::process_multiproof(proven, bad, m.flags) != tree.front());
      }
    }
    CHECK_THROWS_WITH(oz::get_multiproof(tree, {2 * n - 2, 2 * n - 2}), Contains("asked twice"));
  }
  CHECK_THROWS_WITH(oz::process_multiproof({digest{}}, {}, {true}), Contains("invalid multiproof"));
}

TEST_CASE("ABI encoding of worked values", "[oz][abi]") {
  const auto encoded = [](const std::string &types, const std::string &row) {
    const auto in =
        oz::read_standard_json("{\"leafEncoding\":" + types + ",\"values\":[" + row + "]}", "t");
    const auto bytes = merklize::abi::encode(in.types, in.values.front(), "values[0]");
    return merklize::to_hex(bytes.data(), bytes.size());
  };
  const std::string z62(62, '0');
  CHECK(encoded("[\"uint8\"]", "[255]") == z62 + "ff");
  CHECK(encoded("[\"int16\"]", "[\"-1\"]") == std::string(64, 'f'));
  CHECK(encoded("[\"int8\"]", "[\"-128\"]") == std::string(62, 'f') + "80");
  CHECK(encoded("[\"bool\",\"bytes2\"]", "[true,\"0xabcd\"]") ==
        z62 + "01" + "abcd" + z62.substr(2));
  // string "a": offset 32, length 1, the byte padded
  CHECK(encoded("[\"string\"]", "[\"a\"]") == z62 + "20" + z62 + "01" + "61" + z62);
  // uint256[] [1, 2]: offset, length 2, the two words
  CHECK(encoded("[\"uint256[]\"]", "[[1,\"0x2\"]]") ==
        z62 + "20" + z62 + "02" + z62 + "01" + z62 + "02");
  // a static tuple is inline: (uint8,bool) then uint8[2]
  CHECK(encoded("[\"(uint8,bool)\",\"uint8[2]\"]", "[[1,false],[3,4]]") ==
        z62 + "01" + z62 + "00" + z62 + "03" + z62 + "04");
}

TEST_CASE("ABI values and types that do not fit are refused, naming the place", "[oz][abi]") {
  const auto refusal = [](const std::string &types, const std::string &row) {
    try {
      const auto in = oz::read_standard_json(
          "{\"leafEncoding\":" + types + ",\"values\":[" + row + "]}", "in.json");
      oz::leaf_hashes(in, "in.json");
    } catch (const merklize::error &e) {
      return std::string(e.what());
    }
    return std::string("accepted");
  };
  const std::string address = "[\"address\"]";
  CHECK_THAT(refusal("[\"uint9\"]", "[1]"), Contains("ABI type \"uint9\": uint<N> takes N from 8"));
  CHECK_THAT(refusal("[\"fixed128x18\"]", "[1]"), Contains("unknown type"));
  CHECK_THAT(refusal("[\"uint8\"]", "[256]"),
             Contains("values\"[0][0]: \"256\" does not fit uint8"));
  CHECK_THAT(refusal("[\"uint8\"]", "[-1]"), Contains("is negative"));
  CHECK_THAT(refusal("[\"uint256\"]", "[1.5]"), Contains("not an integer"));
  CHECK_THAT(refusal("[\"uint256\"]", "[9007199254740993]"), Contains("write it as a string"));
  CHECK_THAT(refusal("[\"int8\"]", "[\"-129\"]"), Contains("does not fit int8"));
  CHECK_THAT(refusal(address, "[\"0x111111111111111111111111111111111111111\"]"),
             Contains("40 hex digits"));
  // EIP-55's own example, one letter's case changed
  CHECK(refusal(address, "[\"0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed\"]") == "accepted");
  CHECK_THAT(refusal(address, "[\"0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAeD\"]"),
             Contains("bad EIP-55 checksum"));
  CHECK_THAT(refusal("[\"bytes2\"]", "[\"0xabcdef\"]"), Contains("holds 3 bytes, bytes2 2"));
  CHECK_THAT(refusal("[\"bool\"]", "[1]"), Contains("bool takes true or false"));
  CHECK_THAT(refusal("[\"string\",\"uint8\"]", "[\"a\"]"),
             Contains("holds 1 values where its type takes 2"));
  CHECK_THAT(refusal("[\"uint8[2]\"]", "[[1]]"), Contains("values\"[0][0]: holds 1 values"));
  CHECK_THAT(refusal(address, "[\"0x11\""), Contains("in.json: "));
  CHECK_THROWS_WITH(oz::read_standard_json("{\"values\":[]}", "x.json"),
                    Contains("x.json: needs \"leafEncoding\""));
  CHECK_THROWS_WITH(oz::read_standard_json("{\"leafEncoding\":[\"bool\"],\"values\":[]}", "x.json"),
                    Contains("\"values\" is empty"));
}
