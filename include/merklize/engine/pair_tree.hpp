// SPDX-License-Identifier: Apache-2.0 OR MIT
// The pair rules of formats/pair_rules.hpp on a device: the commitments of Bitcoin (duplicate-odd
// levels of sha256d), Filecoin (Fr32 leaves and power-of-two levels of sha256-trunc254, the input
// streamed piece by piece) and OpenZeppelin (the heap array of keccak256-sorted). One launch a
// level, kernels/pair_levels.cl over the node functions of kernels/pair_nodes.cl; each result is
// what the host reference of formats/ gives, bit for bit (tests/test_commitments_device.cpp).
//
//   merklize::pair_tree_device d(device);
//   merklize::bitcoin::tree t = merklize::bitcoin_levels(d, txids);
//   merklize::filecoin_piece p = merklize::filecoin_commitment(d, in); // in: merklize::input
//   std::vector<merklize::digest> a = merklize::oz_standard_array(d, leaves);
#pragma once

#include "../formats/bitcoin.hpp"
#include "../formats/filecoin.hpp"
#include "../formats/oz_standard.hpp"
#include "../io/input.hpp"
#include "../runtime/kernels.hpp"
#include "../runtime/runtime.hpp"

#include <functional>
#include <map>

namespace merklize {

class pair_tree_device {
public:
  explicit pair_tree_device(const cl::Device &device)
      : pair_tree_device(detail::shared_context(device), device) {}
  pair_tree_device(const cl::Context &context, const cl::Device &device)
      : runtime_(context, device), queue_(runtime_.make_queue()),
        local_(std::min(runtime_.tuning_row().batch_work_group_size,
                        runtime_.facts().max_work_group_size)) {}

  const detail::device_runtime &runtime() const { return runtime_; }

  // Tests: fill every buffer with 0xAA bytes before its kernels run, so that a node a kernel
  // leaves unwritten shows as a wrong result, never as the right one left there earlier.
  void set_poison(bool poison) { poison_ = poison; }
  const cl::CommandQueue &queue() const { return queue_; }

  // Shape duplicate-odd: every level over `leaves` (at least one), leaves first, root last.
  std::vector<std::vector<digest>> duplicate_odd_levels(pair_hash hash,
                                                        const std::vector<digest> &leaves) {
    if (leaves.empty()) throw error("a tree of shape duplicate-odd needs at least one leaf");
    std::vector<std::uint64_t> sizes{leaves.size()};
    while (sizes.back() > 1)
      sizes.push_back((sizes.back() + 1) / 2);
    std::uint64_t total = 0;
    for (const std::uint64_t s : sizes)
      total += s;
    cl::Buffer nodes = runtime_.buffer(total * node_bytes, "the tree's levels");
    poisoned(nodes, total * node_bytes);
    write(nodes, 0, leaves.data(), leaves.size());
    cl::Kernel &level = kernel(hash, "pair_level");
    std::uint64_t first = 0;
    for (std::size_t l = 0; l + 1 < sizes.size(); first += sizes[l++]) {
      detail::set_args(level, nodes, cl_ulong(first), cl_ulong(sizes[l]), nodes,
                       cl_ulong(first + sizes[l]));
      detail::launch(queue_, level, sizes[l + 1], local_, {});
    }
    const std::vector<digest> all = read(nodes, 0, total);
    std::vector<std::vector<digest>> levels;
    auto at = all.begin();
    for (const std::uint64_t s : sizes) {
      levels.emplace_back(at, at + static_cast<std::ptrdiff_t>(s));
      at += static_cast<std::ptrdiff_t>(s);
    }
    return levels;
  }

  // Shape heap: the array of 2n - 1 nodes over `leaves` (in tree order, leaf k at 2n - 2 - k),
  // one launch a depth from the deepest up.
  std::vector<digest> heap_tree(pair_hash hash, const std::vector<digest> &leaves) {
    if (leaves.empty()) throw error("a tree of shape heap needs at least one leaf");
    const std::uint64_t n = leaves.size();
    const std::vector<digest> reversed(leaves.rbegin(), leaves.rend());
    cl::Buffer tree = runtime_.buffer((2 * n - 1) * node_bytes, "the tree's nodes");
    poisoned(tree, (2 * n - 1) * node_bytes);
    write(tree, n - 1, reversed.data(), n);
    cl::Kernel &level = kernel(hash, "heap_level");
    if (n > 1) {
      unsigned depth = 0; // of node n - 2, the last internal one: floor(log2(n - 1))
      while ((std::uint64_t(2) << depth) <= n - 1)
        ++depth;
      for (unsigned d = depth + 1; d-- > 0;) {
        const std::uint64_t first = (std::uint64_t(1) << d) - 1;
        const std::uint64_t last = std::min((std::uint64_t(2) << d) - 2, n - 2);
        detail::set_args(level, tree, cl_ulong(first), cl_ulong(last - first + 1));
        detail::launch(queue_, level, last - first + 1, local_, {});
      }
    }
    return read(tree, 0, 2 * n - 1);
  }

  // Shape power of two over Fr32 leaves: the root of the tree over the padded piece of the
  // `blocks` 127-byte blocks in `data` (zero-filled past the data), blocks a power of two.
  digest fr32_root(pair_hash hash, const std::vector<std::uint8_t> &data, std::uint64_t blocks) {
    const std::uint64_t leaves = 4 * blocks;
    grow(raw_, raw_bytes_, blocks * filecoin::fr32_block_bytes, "the piece's data");
    grow(levels_, level_bytes_, (leaves + leaves / 2) * node_bytes, "the piece's levels");
    poisoned(levels_, (leaves + leaves / 2) * node_bytes);
    call_write(raw_, 0, data.data(), blocks * filecoin::fr32_block_bytes);
    cl::Kernel &fr32 = fr32_kernel();
    detail::set_args(fr32, raw_, cl_ulong(blocks), levels_);
    detail::launch(queue_, fr32, blocks, local_, {});
    // Level l lies at node 0 for even l and at node `leaves` for odd l.
    cl::Kernel &level = kernel(hash, "pair_level");
    std::uint64_t count = leaves, at = 0;
    for (; count > 1; count /= 2) {
      const std::uint64_t to = at == 0 ? leaves : 0;
      detail::set_args(level, levels_, cl_ulong(at), cl_ulong(count), levels_, cl_ulong(to));
      detail::launch(queue_, level, count / 2, local_, {});
      at = to;
    }
    return read(levels_, at, 1).front();
  }

private:
  template <class T>
  void write(const cl::Buffer &buffer, std::uint64_t node, const T *data, std::uint64_t nodes) {
    call_write(buffer, node * node_bytes, data, nodes * node_bytes);
  }
  void call_write(const cl::Buffer &buffer, std::uint64_t offset, const void *data,
                  std::uint64_t bytes) {
    detail::call("clEnqueueWriteBuffer",
                 [&] { return queue_.enqueueWriteBuffer(buffer, CL_TRUE, offset, bytes, data); });
  }
  std::vector<digest> read(const cl::Buffer &buffer, std::uint64_t node, std::uint64_t nodes) {
    std::vector<digest> out(nodes);
    detail::call("clEnqueueReadBuffer", [&] {
      return queue_.enqueueReadBuffer(buffer, CL_TRUE, node * node_bytes, nodes * node_bytes,
                                      out.data());
    });
    return out;
  }
  void poisoned(const cl::Buffer &buffer, std::uint64_t bytes) {
    if (!poison_) return;
    const cl_uchar pattern = 0xAA;
    detail::call("clEnqueueFillBuffer",
                 [&] { return queue_.enqueueFillBuffer(buffer, pattern, 0, bytes); });
  }
  void grow(cl::Buffer &buffer, std::uint64_t &capacity, std::uint64_t bytes, const char *what) {
    if (bytes <= capacity) return;
    buffer = runtime_.buffer(bytes, what);
    capacity = bytes;
  }

  cl::Kernel &kernel(pair_hash hash, const char *name) {
    cl::Kernel &k = kernels_[{hash, name}];
    if (!k()) k = runtime_.kernel(detail::pair_levels_program(hash), name, local_);
    return k;
  }
  cl::Kernel &fr32_kernel() {
    if (!fr32_()) fr32_ = runtime_.kernel(detail::fr32_program(), "fr32_leaves", local_);
    return fr32_;
  }

  detail::device_runtime runtime_;
  cl::CommandQueue queue_;
  std::size_t local_;
  std::map<std::pair<pair_hash, std::string>, cl::Kernel> kernels_; // built on first use
  cl::Kernel fr32_;
  cl::Buffer raw_, levels_; // a Filecoin piece's data and levels, reused
  std::uint64_t raw_bytes_ = 0, level_bytes_ = 0;
  bool poison_ = false;
};

// Bitcoin's tree over `txids` (internal order) on the device, with Bitcoin Core's mutation flag.
inline bitcoin::tree bitcoin_levels(pair_tree_device &d, const std::vector<digest> &txids) {
  if (txids.empty()) throw error("a Bitcoin block has at least one transaction: no txids given");
  bitcoin::tree t{d.duplicate_odd_levels(pair_hash::sha256d, txids), false};
  t.mutated = bitcoin::is_mutated(t.levels);
  return t;
}

// OpenZeppelin's array over `leaves` (in tree order): on the device where this build has the
// kernels of keccak256_sorted (kernels/keccak.cl, the device Keccak-256), else the host's
// (formats/oz_standard.hpp). Either is the same array; the leaves, hashed twice from their ABI
// encoding, are the host's in both.
inline std::vector<digest> oz_standard_array(pair_tree_device &d,
                                             const std::vector<digest> &leaves) {
  if (detail::has_pair_kernels(pair_hash::keccak256_sorted))
    return d.heap_tree(pair_hash::keccak256_sorted, leaves);
  return oz::make_tree(leaves);
}

// A piece's commitment, its padded size and the data's size.
struct filecoin_piece {
  digest commitment;
  std::uint64_t padded_bytes = 0, data_bytes = 0;
};

// Filecoin's commitment of the data `read(buffer, n)` gives (n bytes, fewer only at its end),
// streamed through the device in pieces of 2^piece_log2 leaves (2^piece_log2 / 4 blocks of 127
// bytes), each reduced there to its root; the roots are combined on the host with zero pieces'
// roots up to the padded size. `name` names the data in errors.
inline filecoin_piece
filecoin_commitment(pair_tree_device &d,
                    const std::function<std::uint64_t(std::uint8_t *, std::uint64_t)> &read,
                    const std::string &name, unsigned piece_log2 = 20) {
  if (piece_log2 < 2 || piece_log2 > 30)
    throw error("pieces of 2^" + std::to_string(piece_log2) + " leaves: 2^2 to 2^30 are taken");
  const std::uint64_t blocks = (std::uint64_t(1) << piece_log2) / 4;
  const std::uint64_t piece_bytes = blocks * filecoin::fr32_block_bytes;
  std::vector<std::uint8_t> data(piece_bytes);
  std::vector<digest> roots;
  filecoin_piece piece;
  for (;;) {
    const std::uint64_t got = read(data.data(), piece_bytes);
    if (got == 0) break;
    piece.data_bytes += got;
    std::fill(data.begin() + static_cast<std::ptrdiff_t>(got), data.end(), 0);
    // A piece that is the whole data is only as large as its padded size.
    const std::uint64_t used = roots.empty() && got < piece_bytes
                                   ? filecoin::padded_piece_size(got) / filecoin::fr32_padded_bytes
                                   : blocks;
    roots.push_back(d.fr32_root(pair_hash::sha256_trunc254, data, used));
    if (got < piece_bytes) break;
  }
  if (piece.data_bytes == 0) throw error(name + " is empty: a piece of no data has no commitment");
  piece.padded_bytes = filecoin::padded_piece_size(piece.data_bytes);
  piece.commitment = roots.size() == 1
                         ? roots.front()
                         : power_of_two_root(pair_hash::sha256_trunc254, roots, piece_log2);
  return piece;
}

// The same over an input (a file, a pipe): read to its end.
inline filecoin_piece filecoin_commitment(pair_tree_device &d, input &in,
                                          unsigned piece_log2 = 20) {
  return filecoin_commitment(
      d, [&](std::uint8_t *buffer, std::uint64_t n) { return in.read_full(buffer, n); }, in.name(),
      piece_log2);
}

} // namespace merklize
