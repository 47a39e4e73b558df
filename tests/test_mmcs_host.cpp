// SPDX-License-Identifier: Apache-2.0 OR MIT
// The host MMCS (core/mmcs.hpp) against tests/mmcs_model.py, an independent Python model of
// Plonky3's MerkleTreeMmcs: caps at heights 0, 1, 2 and 5, and every row's opening (rows and
// path), on awkward shapes (one row, widths 0, 1, 7, 8, 9, 24, 25, several matrices of heights
// on the ladder, not powers of two, in shuffled order), for BabyBear, KoalaBear and Goldilocks.
// Then the openings verify and anything changed does not, and the refusals: heights Plonky3
// refuses, elements that are not canonical (named by matrix, row and column), instances with no
// MMCS configuration. Built without OpenCL, sanitized.
#include "host_helpers.hpp"

#include <merklize/core/mmcs_encoding.hpp>

#include "mmcs_helpers.hpp"

#include <catch2/catch.hpp>

#if defined(CL_VERSION_1_0)
#error "merklize/core/mmcs.hpp must not pull in the OpenCL headers"
#endif

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <map>
#include <random>
#include <sstream>
#include <unistd.h>

using Catch::Matchers::Contains;
namespace mmcs = merklize::mmcs;
namespace p2 = merklize::poseidon2;
using test::owned_matrix;
using test::random_matrix;
using test::views;

namespace {

struct field_case {
  const char *name;
  const p2::instance &in;
};
const field_case fields[] = {{"babybear", p2::babybear_16},
                             {"koalabear", p2::koalabear_16},
                             {"goldilocks", p2::goldilocks_8}};

// The model's answer: its cap, and per opened index the rows and the path (hex).
struct model_answer {
  std::vector<std::string> cap;
  std::map<std::size_t, std::vector<std::vector<std::uint64_t>>> rows;
  std::map<std::size_t, std::vector<std::string>> path;
  std::string error;
};

model_answer ask_model(const char *field, unsigned cap_height, const std::vector<owned_matrix> &ms,
                       const p2::instance &in, std::size_t opens) {
  const auto input = std::filesystem::temp_directory_path() /
                     ("merklize_mmcs_model." + std::to_string(::getpid()) + ".json");
  {
    std::ofstream out(input);
    out << "{\"field\": \"" << field << "\", \"cap_height\": " << cap_height << ", \"open\": [";
    for (std::size_t i = 0; i < opens; ++i)
      out << (i ? ", " : "") << i;
    out << "], \"matrices\": [";
    for (std::size_t m = 0; m < ms.size(); ++m) {
      out << (m ? ", " : "") << "{\"height\": " << ms[m].height << ", \"width\": " << ms[m].width
          << ", \"elements\": [";
      for (std::size_t i = 0; i < ms[m].height * ms[m].width; ++i)
        out << (i ? ", " : "") << mmcs::element(ms[m].bytes.data(), i, in);
      out << "]}";
    }
    out << "]}\n";
  }
  // popen rather than tests/process.hpp, whose helpers bring in OpenCL: these tests have none.
  const std::string command = "python3 '" + std::string(MERKLIZE_SOURCE_DIR) +
                              "/tests/mmcs_model.py' '" + MERKLIZE_TEST_VECTOR_DIR + "' < '" +
                              input.string() + "'";
  FILE *model = ::popen(command.c_str(), "r");
  REQUIRE(model != nullptr);
  model_answer answer;
  std::string text;
  char buffer[4096];
  while (std::size_t n = std::fread(buffer, 1, sizeof buffer, model))
    text.append(buffer, n);
  CHECK(::pclose(model) == 0);
  std::filesystem::remove(input);
  std::istringstream lines(text);
  for (std::string line; std::getline(lines, line);) {
    std::istringstream words(line);
    std::string kind;
    std::size_t index = 0, m = 0;
    words >> kind;
    if (kind == "error") {
      answer.error = line.substr(6);
    } else if (kind == "cap") {
      answer.cap.emplace_back();
      words >> answer.cap.back();
    } else if (kind == "row") {
      words >> index >> m;
      auto &rows = answer.rows[index];
      rows.emplace_back();
      for (std::uint64_t e; words >> e;)
        rows.back().push_back(e);
    } else if (kind == "path") {
      words >> index;
      auto &path = answer.path[index];
      for (std::string hex; words >> hex;)
        path.push_back(hex);
    }
  }
  return answer;
}

std::vector<std::string> hexes(const std::vector<merklize::digest> &ds) {
  std::vector<std::string> out;
  for (const auto &d : ds)
    out.push_back(merklize::to_hex(d));
  return out;
}

} // namespace

TEST_CASE("the host MMCS agrees with an independent Python model of Plonky3's", "[mmcs]") {
  std::mt19937_64 rng(33);
  for (const field_case &f : fields)
    for (const auto &shape : test::mmcs_shapes)
      for (const unsigned cap_height : {0u, 1u, 2u, 5u}) {
        std::vector<owned_matrix> ms;
        std::ostringstream what;
        for (const auto &[h, w] : shape) {
          ms.push_back(random_matrix(h, w, f.in, rng));
          what << h << 'x' << w << ' ';
        }
        INFO(f.name << " matrices " << what.str() << "cap height " << cap_height);
        const mmcs::tree tree(views(ms), f.in, cap_height);
        const model_answer model = ask_model(f.name, cap_height, ms, f.in, tree.tallest());
        REQUIRE(model.error.empty());
        CHECK(hexes(tree.cap()) == model.cap);
        std::vector<mmcs::dimensions> dims;
        for (const owned_matrix &m : ms)
          dims.push_back({m.height, m.width});
        for (std::size_t index = 0; index < tree.tallest(); ++index) {
          INFO("index " << index);
          const mmcs::opening opening = tree.open(index);
          CHECK(opening.rows == model.rows.at(index));
          CHECK(hexes(opening.path) == model.path.at(index));
          CHECK(mmcs::verify_refusal(tree.cap(), cap_height, dims, index, opening, f.in) == "");
        }
      }
}

TEST_CASE("an MMCS opening that was changed does not verify", "[mmcs]") {
  std::mt19937_64 rng(34);
  const p2::instance &in = p2::babybear_16;
  std::vector<owned_matrix> ms;
  for (const auto &[h, w] : test::mmcs_shapes[7])
    ms.push_back(random_matrix(h, w, in, rng));
  std::vector<mmcs::dimensions> dims;
  for (const owned_matrix &m : ms)
    dims.push_back({m.height, m.width});
  const mmcs::tree tree(views(ms), in, 1);
  const mmcs::opening good = tree.open(3);
  auto refusal = [&](const mmcs::opening &o, std::size_t index = 3,
                     const std::vector<mmcs::dimensions> *d = nullptr) {
    return mmcs::verify_refusal(tree.cap(), 1, d ? *d : dims, index, o, in);
  };
  REQUIRE(refusal(good) == "");
  CHECK(refusal(good, 2) == "the opening does not match the cap");
  // Heights 5, 3, 5 enter below the cap's layer (2); height 1 enters at the root, above it.
  for (std::size_t m = 0; m < 3; ++m) {
    mmcs::opening bad = good;
    bad.rows[m][0] = (bad.rows[m][0] + 1) % in.prime;
    CHECK(refusal(bad) == "the opening does not match the cap");
  }
  mmcs::opening bad = good;
  bad.path[1][0] ^= 1;
  CHECK(refusal(bad) == "the opening does not match the cap");
  bad = good;
  bad.path.pop_back();
  CHECK(refusal(bad) == "the path has 1 siblings, the shape 2");
  bad = good;
  bad.rows.pop_back();
  CHECK(refusal(bad) == "the opening has 4 rows for 5 matrices");
  bad = good;
  bad.rows[2].push_back(1);
  CHECK(refusal(bad) == "matrix 2's row has 26 elements, its width 25");
  bad = good;
  bad.rows[1][0] = in.prime;
  CHECK(refusal(bad) == "opened matrix 1, column 0: 2013265921 is not a canonical BabyBear "
                        "element (below p = 2013265921)");
  CHECK_THAT(refusal(good, 5), Contains("row index 5 is out of range"));
  auto off_ladder = dims;
  off_ladder[1].height = 4; // 3 rows committed; 4 is not ceil(5 / 2)
  CHECK_THAT(refusal(good, 3, &off_ladder), Contains("matrix 1 has height 4"));
}

TEST_CASE("an MMCS opening's sibling with a limb raised by p is refused, naming it", "[mmcs]") {
  std::mt19937_64 rng(35);
  for (const field_case &f : fields) {
    INFO(f.name);
    std::vector<owned_matrix> ms;
    for (const auto &[h, w] : test::mmcs_shapes[7])
      ms.push_back(random_matrix(h, w, f.in, rng));
    std::vector<mmcs::dimensions> dims;
    for (const owned_matrix &m : ms)
      dims.push_back({m.height, m.width});
    const mmcs::tree tree(views(ms), f.in, 1);
    mmcs::opening o = tree.open(3);
    REQUIRE(mmcs::verify_refusal(tree.cap(), 1, dims, 3, o, f.in) == "");
    // Limb 1 of sibling 0 raised by p (x + p where it fits the limb: hashed as x, it would
    // verify, a second opening of the row).
    const unsigned bytes = p2::limb_bytes(f.in);
    const std::uint64_t most = bytes == 8 ? UINT64_MAX : (std::uint64_t{1} << 32) - 1;
    const std::uint64_t limb =
        f.in.prime + p2::limb_value(o.path[0], f.in, 1) % (most - f.in.prime + 1);
    for (unsigned b = 0; b < bytes; ++b)
      o.path[0][bytes + b] = static_cast<std::uint8_t>(limb >> (8 * b));
    CHECK_THAT(mmcs::verify_refusal(tree.cap(), 1, dims, 3, o, f.in),
               Contains("sibling 0, limb 1: " + std::to_string(limb) + " is not a canonical"));
  }
}

TEST_CASE("an MMCS cap does not bind a matrix entering above its layer, as Plonky3's", "[mmcs]") {
  std::mt19937_64 rng(36);
  const p2::instance &in = p2::babybear_16;
  // Heights 8 and 1 with cap height 2: the cap is layer 1; the one-row matrix enters at layer 3.
  std::vector<owned_matrix> ms{random_matrix(8, 3, in, rng), random_matrix(1, 2, in, rng)};
  CHECK(mmcs::unbound_matrices({8, 1}, 2) == std::vector<std::size_t>{1});
  CHECK(mmcs::unbound_matrices({8, 1}, 0).empty()); // the root: every matrix bound
  CHECK(mmcs::unbound_matrices({8, 2}, 2) == std::vector<std::size_t>{1}); // at layer 2
  CHECK(mmcs::unbound_matrices({8, 4}, 2).empty()); // height 4 enters at layer 1, the cap's
  const mmcs::tree before(views(ms), in, 2);
  const mmcs::tree root_before(views(ms), in, 0);
  const std::uint64_t first = p2::limb_value(ms[1].bytes.data(), in, 0);
  for (unsigned b = 0; b < 4; ++b) // its first element, another canonical one
    ms[1].bytes[b] = static_cast<std::uint8_t>(((first + 1) % in.prime) >> (8 * b));
  const mmcs::tree after(views(ms), in, 2);
  CHECK(before.cap() == after.cap());
  // Its row in an opening is never hashed: a changed one verifies against the cap.
  mmcs::opening o = after.open(5);
  o.rows[1][0] = (o.rows[1][0] + 1) % in.prime;
  CHECK(mmcs::verify_refusal(before.cap(), 2, {{8, 3}, {1, 2}}, 5, o, in) == "");
  // At cap height 0 the root binds it.
  CHECK(mmcs::tree(views(ms), in, 0).cap() != root_before.cap());
}

TEST_CASE("MMCS openings from the layers above dropped ones equal those from every layer",
          "[mmcs]") {
  std::mt19937_64 rng(41);
  for (const p2::instance *in : {&p2::babybear_16, &p2::goldilocks_8})
    for (const auto &shape : test::mmcs_shapes) {
      std::vector<owned_matrix> ms;
      for (const auto &[h, w] : shape)
        ms.push_back(random_matrix(h, w, *in, rng));
      for (const unsigned cap_height : {0u, 1u, 3u}) {
        const mmcs::tree tree(views(ms), *in, cap_height);
        const unsigned cap_at = mmcs::cap_layer(tree.tallest(), cap_height);
        for (unsigned dropped = 0; dropped <= cap_at; ++dropped) {
          const std::vector<std::vector<merklize::digest>> kept(tree.layers().begin() + dropped,
                                                                tree.layers().end());
          for (std::size_t index = 0; index < tree.tallest(); ++index) {
            INFO(in->name << ", " << shape.size() << " matrices, the first " << shape[0].first
                          << "x" << shape[0].second << ", cap height " << cap_height << ", dropped "
                          << dropped << ", index " << index);
            const mmcs::opening o = mmcs::open_at(views(ms), kept, cap_height, index, *in, dropped);
            CHECK(o.path == tree.open(index).path);
            CHECK(o.rows == tree.open(index).rows);
          }
        }
        CHECK_THROWS_WITH(mmcs::open_at(views(ms), tree.layers(), cap_height, 0, *in, cap_at + 1),
                          Contains("a commitment keeps its cap's layer"));
      }
    }
}

TEST_CASE("the host MMCS refuses what Plonky3 refuses, naming it", "[mmcs]") {
  std::mt19937_64 rng(35);
  const p2::instance &in = p2::koalabear_16;
  auto commit = [&](const std::vector<std::size_t> &heights) {
    std::vector<owned_matrix> ms;
    for (const std::size_t h : heights)
      ms.push_back(random_matrix(h, 2, in, rng));
    return mmcs::tree(views(ms), in, 0);
  };
  CHECK_THROWS_WITH(commit({8, 7}),
                    Contains("matrix 1 has height 7") && Contains("ceil(8 / 2^0) = 8"));
  CHECK_THROWS_WITH(commit({7, 3}),
                    Contains("matrix 1 has height 3") && Contains("ceil(7 / 2^1) = 4"));
  CHECK_THROWS_WITH(commit({8, 0}), Contains("matrix 1 has height 0"));
  CHECK_THROWS_WITH(commit({0, 0}), Contains("every matrix has height 0"));
  CHECK_THROWS_WITH(commit({}), Contains("no matrices"));
  CHECK_NOTHROW(commit({7, 4, 2, 1, 4}));

  auto ms = std::vector<owned_matrix>{random_matrix(4, 5, in, rng), random_matrix(2, 3, in, rng)};
  ms[1].bytes[4 * 4 + 3] = 0xff; // element 4 of width 3: row 1, column 1
  CHECK_THROWS_WITH(mmcs::tree(views(ms), in, 0),
                    Contains("matrix 1, row 1, column 1: ") &&
                        Contains("is not a canonical KoalaBear element (below p = 2130706433)"));
  CHECK_THROWS_WITH(mmcs::tree(views(ms), p2::babybear_24, 0),
                    Contains("no MMCS configuration for Poseidon2 babybear-w24"));
}

TEST_CASE("an MMCS opening as a line of JSON, read back strictly", "[mmcs]") {
  std::mt19937_64 rng(40);
  const p2::instance &in = p2::goldilocks_8;
  const std::vector<owned_matrix> ms{random_matrix(5, 3, in, rng), random_matrix(3, 0, in, rng),
                                     random_matrix(1, 1, in, rng)};
  const mmcs::tree tree(views(ms), in, 1);
  const mmcs::opening o = tree.open(4);
  const std::string line = mmcs::to_json(4, o);
  CHECK_THAT(line, Contains("\"rows\": [[") && Contains("], [], ["));
  const mmcs::indexed_opening back = mmcs::opening_from_json(line);
  CHECK(back.index == 4);
  CHECK(back.proof.rows == o.rows);
  CHECK(back.proof.path == o.path);
  const std::pair<const char *, const char *> refused[] = {
      {R"({"index": 1, "rows": []})", "lacks \"path\""},
      {R"({"index": 1, "rows": [], "path": [], "x": 1})", "not \"x\""},
      {R"({"index": 1, "index": 2, "rows": [], "path": []})", "not \"index\" twice"},
      {R"({"index": -1, "rows": [], "path": []})", "\"index\" is not a non-negative integer"},
      {R"({"index": 1, "rows": [[1.5]], "path": []})", "is not a non-negative integer"},
      {R"({"index": 1, "rows": [[18446744073709551616]], "path": []})", "exceeds 2^64 - 1"},
      {R"({"index": 1, "rows": [], "path": ["ab"]})", "a digest is 64 hex digits"},
      {R"([])", "is not an object"},
  };
  for (const auto &[text, why] : refused)
    CHECK_THROWS_WITH(mmcs::opening_from_json(text), Contains(why));
}
