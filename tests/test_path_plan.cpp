// SPDX-License-Identifier: Apache-2.0 OR MIT
// The one path planner (core/path_plan.hpp) and the provers that read it: the plan against level
// sizes computed apart, and each prover against the way it made its proofs before the planner
// (the algorithms kept here as oracles: binary prove's climb, k-ary groups padded then the path's
// node erased, Bitcoin's sibling-or-itself) for every leaf of trees of 1..70 leaves, arities
// 2, 4, 8, 16, shapes promote, zero and duplicate-odd, fixed depths above the natural one; each
// proof verified against the host root. Built without OpenCL, sanitized.
#include "proof_helpers.hpp"

#include <merklize/core/kary.hpp>
#include <merklize/core/path_plan.hpp>
#include <merklize/core/reference.hpp>
#include <merklize/formats/bitcoin.hpp>
#include <merklize/proofs/proof_model.hpp>
#include <merklize/proofs/proof_verify.hpp>

#include <catch2/catch.hpp>

#include <algorithm>

#if defined(CL_VERSION_1_0)
#error "merklize/core/path_plan.hpp must not pull in the OpenCL headers"
#endif

using merklize::digest;
using merklize::path_group;
using merklize::path_shape;
using merklize::stand_in;

namespace {

constexpr std::uint64_t max_leaves = 70;
const unsigned arities[] = {2, 4, 8, 16};

std::vector<digest> random_leaves(std::uint64_t n) {
  const auto bytes = test::random_bytes(n * merklize::node_bytes);
  std::vector<digest> leaves(n);
  std::memcpy(leaves.data(), bytes.data(), bytes.size());
  return leaves;
}

// A digest no tree of random leaves holds: a stand-in that must not be read comes back as this.
digest poison() {
  digest d;
  d.fill(0xa5);
  return d;
}

// Level sizes by ceil(size / k), apart from the planner's parent_count.
std::vector<std::uint64_t> sizes_apart(std::uint64_t n, unsigned k, unsigned levels) {
  std::vector<std::uint64_t> sizes = {n};
  while (sizes.size() <= levels)
    sizes.push_back((sizes.back() + k - 1) / k);
  return sizes;
}

unsigned height_apart(std::uint64_t n, unsigned k) {
  unsigned h = 0;
  for (std::uint64_t reach = 1; reach < n; reach *= k)
    ++h;
  return h;
}

bool same_path(const std::vector<path_group> &a, const std::vector<path_group> &b) {
  return std::equal(a.begin(), a.end(), b.begin(), b.end(), [](const auto &x, const auto &y) {
    return x.level == y.level && x.first == y.first && x.present == y.present && x.at == y.at &&
           x.width == y.width && x.missing == y.missing && x.added == y.added;
  });
}

// The binary prover before the planner: climb's sibling, a zero root where the node is alone.
std::vector<digest> climb_siblings(const merklize::tree &t, std::uint64_t index) {
  std::vector<digest> siblings;
  const auto zeros = merklize::zero_subtree_roots(t.options().hash, t.root_depth());
  using merklize::detail::nothing;
  merklize::detail::climb<nothing>(
      {{index, nothing{}}}, t.leaf_count(), t.root_depth(),
      [](unsigned, nothing, nothing) { return nothing{}; },
      [&](unsigned level, std::uint64_t i, nothing) {
        siblings.push_back(t.node(level, i ^ 1));
        return nothing{};
      },
      [&](unsigned level, nothing) {
        if (t.options().shape == merklize::shape::zero) siblings.push_back(zeros[level]);
        return nothing{};
      });
  return siblings;
}

// The k-ary prover before the planner: the group as kary_group fills it, the path's node erased.
std::vector<std::vector<digest>>
group_erase_siblings(const std::vector<std::vector<digest>> &levels,
                     const merklize::kary_options &o, std::uint64_t index) {
  const auto zeros = merklize::kary_zero_roots(o, static_cast<unsigned>(levels.size()));
  std::vector<std::vector<digest>> siblings;
  for (std::size_t level = 0; level + 1 < levels.size(); ++level, index /= o.arity) {
    const std::uint64_t first = index / o.arity * o.arity;
    auto group = merklize::kary_group(o, levels[level], first, zeros[level]);
    group.erase(group.begin() + static_cast<std::ptrdiff_t>(index - first));
    siblings.push_back(std::move(group));
  }
  return siblings;
}

} // namespace

TEST_CASE("a path's groups follow the level sizes, the shape and the depth", "[path_plan]") {
  for (const unsigned k : arities)
    for (const stand_in missing : {stand_in::nothing, stand_in::zero_root, stand_in::itself}) {
      if (missing == stand_in::itself && k != 2) continue;
      for (std::uint64_t n = 1; n <= max_leaves; ++n) {
        const unsigned natural = height_apart(n, k);
        REQUIRE(merklize::natural_height(n, k) == natural);
        for (unsigned levels = 0; levels <= natural + 3; ++levels) {
          const auto sizes = sizes_apart(n, k, levels);
          for (std::uint64_t index = 0; index < n; ++index) {
            INFO("k=" << k << " stand-in " << int(missing) << " n=" << n << " levels=" << levels
                      << " leaf " << index);
            const auto path = merklize::plan_path({k, missing}, n, index, levels);
            REQUIRE(path.size() == levels);
            std::vector<path_group> expected;
            std::uint64_t at = index;
            for (unsigned l = 0; l < levels; ++l, at /= k) {
              const std::uint64_t first = at / k * k;
              const std::uint64_t present = std::min<std::uint64_t>(k, sizes[l] - first);
              const bool short_group = present < k && missing != stand_in::nothing;
              expected.push_back({l, first, present, at, short_group ? k : present,
                                  short_group ? missing : stand_in::nothing, l >= natural});
            }
            CHECK(same_path(path, expected));
            CHECK(std::all_of(path.begin(), path.end(),
                              [&](const path_group &g) { return g.place() == g.at % k; }));
          }
        }
      }
    }
}

TEST_CASE("a path from a level up is the top of the whole tree's path", "[path_plan]") {
  // kary_multi_tree proves above the shards from their level; a part's device tree below it.
  for (const unsigned k : arities)
    for (const stand_in missing : {stand_in::nothing, stand_in::zero_root})
      for (std::uint64_t n = 1; n <= max_leaves; ++n) {
        const unsigned natural = merklize::natural_height(n, k);
        const auto sizes = sizes_apart(n, k, natural);
        for (std::uint64_t index = 0; index < n; ++index) {
          const auto whole = merklize::plan_path({k, missing}, n, index, natural);
          std::uint64_t at = index;
          for (unsigned s = 0; s <= natural; ++s, at /= k) {
            INFO("k=" << k << " n=" << n << " leaf " << index << " from level " << s);
            const auto above = merklize::plan_path({k, missing}, sizes[s], at, natural - s, s);
            REQUIRE(above.size() == natural - s);
            for (std::size_t j = 0; j < above.size(); ++j) {
              const path_group &a = above[j], &w = whole[s + j];
              CHECK((a.level == w.level && a.first == w.first && a.present == w.present &&
                     a.at == w.at && a.width == w.width && a.missing == w.missing));
            }
            const auto below = merklize::plan_path({k, missing}, n, index, s);
            for (std::size_t j = 0; j < below.size(); ++j)
              CHECK((below[j].first == whole[j].first && below[j].width == whole[j].width));
          }
        }
      }
}

TEST_CASE("the planner refuses what it cannot plan", "[path_plan]") {
  CHECK_THROWS_WITH(merklize::plan_path({2, stand_in::nothing}, 5, 5, 3),
                    Catch::Contains("node 5 is past the 5 nodes"));
  CHECK_THROWS_WITH(merklize::plan_path({3, stand_in::nothing}, 5, 0, 2),
                    Catch::Contains("arity 3 is not a power of two"));
  CHECK_THROWS_WITH(merklize::plan_path({4, stand_in::itself}, 5, 0, 2),
                    Catch::Contains("paired with itself needs arity 2"));
  // A hostile leaf count plans without allocating a level's worth: 64 groups.
  const auto path = merklize::plan_path({2, stand_in::zero_root}, ~std::uint64_t(0), 12345, 64);
  CHECK(path.size() == 64); // 2^64 - 1 leaves: the top group is the root's two children
  CHECK((path.back().first == 0 && path.back().present == 2 && !path.back().added));
}

TEST_CASE("group siblings read only the children a proof holds", "[path_plan]") {
  // A node outside the group, or a stand-in the shape does not take, is poison if ever read.
  const digest bad = poison();
  std::vector<digest> level = random_leaves(11);
  for (const unsigned k : {2u, 4u, 8u})
    for (const stand_in missing : {stand_in::nothing, stand_in::zero_root, stand_in::itself}) {
      if (missing == stand_in::itself && k != 2) continue;
      for (std::uint64_t index = 0; index < level.size(); ++index) {
        const path_group g = merklize::plan_path({k, missing}, level.size(), index, 1).front();
        const auto child = [&](std::uint64_t i) {
          return i >= g.first && i < g.first + g.present ? level[i] : bad;
        };
        const digest zero = missing == stand_in::zero_root ? digest{} : bad;
        const auto siblings = merklize::group_siblings(g, child, zero);
        INFO("k=" << k << " stand-in " << int(missing) << " leaf " << index);
        CHECK(siblings.size() == g.width - 1);
        CHECK(std::count(siblings.begin(), siblings.end(), bad) == 0);
        CHECK(std::count(siblings.begin(), siblings.end(), level[index]) ==
              (missing == stand_in::itself && g.present == 1 ? 1 : 0));
      }
    }
}

TEST_CASE("binary proofs are the climb's, and verify, at every fixed depth", "[path_plan]") {
  for (const auto hash : {merklize::hash_kind::sha256, merklize::hash_kind::blake3})
    for (std::uint64_t n = 1; n <= (hash == merklize::hash_kind::sha256 ? max_leaves : 17); ++n) {
      const auto leaves = random_leaves(n);
      const unsigned natural = merklize::natural_height(n, 2);
      for (int extra = -1; extra <= 3; ++extra) {
        for (const auto pad : {merklize::shape::promote, merklize::shape::zero}) {
          if (pad == merklize::shape::promote && extra >= 0) continue;
          merklize::tree_options o(hash, pad);
          if (extra >= 0) o.depth = natural + unsigned(extra);
          const auto t = merklize::reference_tree(leaves.data(), n * merklize::node_bytes, o);
          for (std::uint64_t i = 0; i < n; ++i) {
            INFO(test::describe(o) << " n=" << n << " depth+" << extra << " leaf " << i);
            const auto proof = merklize::prove(t, i);
            REQUIRE(proof.siblings == climb_siblings(t, i));
            CHECK(merklize::verify(proof, leaves[i], t.root()).valid);
          }
        }
      }
    }
}

TEST_CASE("k-ary proofs are the padded groups', verify, and tampered ones do not",
          "[path_plan][kary]") {
  for (const unsigned k : arities)
    for (const auto pad : {merklize::shape::promote, merklize::shape::zero})
      for (std::uint64_t n = 1; n <= max_leaves; ++n) {
        const merklize::kary_options o{merklize::hash_kind::sha256, k, pad};
        const auto leaves = random_leaves(n);
        const auto levels = merklize::kary_levels(leaves, o);
        const digest &root = levels.back().front();
        const auto t = merklize::reference_tree(leaves.data(), n * merklize::node_bytes,
                                                merklize::tree_options(o.hash, pad));
        for (std::uint64_t i = 0; i < n; ++i) {
          INFO("k=" << k << " shape " << merklize::to_string(pad) << " n=" << n << " leaf " << i);
          auto proof = merklize::kary_prove(levels, o, i);
          REQUIRE(proof.siblings == group_erase_siblings(levels, o, i));
          CHECK(merklize::kary_verify(proof, leaves[i], root));
          if (k == 2) { // arity 2 is the binary tree: the same siblings, a level's group flat
            std::vector<digest> flat;
            for (const auto &group : proof.siblings)
              flat.insert(flat.end(), group.begin(), group.end());
            CHECK(flat == merklize::prove(t, i).siblings);
          }
          for (auto &group : proof.siblings)
            if (!group.empty() && n <= 9) { // tampered: a sibling changed, one too many
              group.back()[0] ^= 1;
              CHECK_FALSE(merklize::kary_verify(proof, leaves[i], root));
              group.back()[0] ^= 1;
              group.push_back(group.back());
              CHECK_FALSE(merklize::kary_verify(proof, leaves[i], root));
              group.pop_back();
            }
        }
      }
}

TEST_CASE("Bitcoin's branches are the sibling or the node itself, and lead to the root",
          "[path_plan][bitcoin]") {
  for (std::uint64_t n = 1; n <= max_leaves; ++n) {
    const auto txids = random_leaves(n);
    const auto t = merklize::bitcoin::levels_of(txids);
    for (std::uint64_t i = 0; i < n; ++i) {
      INFO("n=" << n << " txid " << i);
      const auto b = merklize::bitcoin::prove(t.levels, i);
      std::vector<digest> expected;
      std::uint64_t at = i;
      for (std::size_t l = 0; l + 1 < t.levels.size(); ++l, at /= 2)
        expected.push_back((at ^ 1) < t.levels[l].size() ? t.levels[l][at ^ 1] : t.levels[l][at]);
      REQUIRE(b.siblings == expected);
      CHECK(merklize::bitcoin::root_of(txids[i], b) == t.root());
    }
  }
}
