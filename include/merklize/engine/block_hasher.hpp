// SPDX-License-Identifier: Apache-2.0 OR MIT
// block_hasher: leaves hashed from data blocks on one OpenCL device (block_leaves.hpp's rule,
// kernels/sha256_block_leaves.cl, blake3_block_leaves.cl, keccak.cl), from device buffers or
// streamed from an input, and the chunk chaining values of BLAKE3 that Bao's outboard is made of.
//
//   merklize::block_hasher h(device);
//   merklize::input in("disk.img");
//   merklize::device_leaves leaves = h.leaves_of(in, rule);   // the leaves stay on the device
//
// An input streams through page-locked staging in pieces of whole blocks (piece_pipeline.hpp):
// piece j + 1 is read and uploaded while the device hashes piece j, and only the leaves are
// kept, in one device buffer that the trees (block_tree.hpp) are built from, so the data
// crosses the bus once. The leaves take 32 bytes per block of device memory.
//
// Not thread-safe; use one per thread.
#pragma once

#include "../core/block_leaves.hpp"
#include "../core/tree.hpp"
#include "../io/input.hpp"
#include "../pipeline/piece_pipeline.hpp"
#include "../plan/build_config.hpp"
#include "../plan/hash_config.hpp"
#include "../runtime/kernels.hpp"
#include "../runtime/profiling.hpp"
#include "../runtime/queue_drain.hpp"
#include "../runtime/runtime.hpp"

#include <algorithm>
#include <cstring>
#include <functional>
#include <string>
#include <vector>

namespace merklize {

// Reads bytes [offset, offset + bytes) of some data into `into`, or throws. Several devices may
// call one at once, each for bytes of its own.
using data_reader =
    std::function<void(std::uint64_t offset, std::uint64_t bytes, std::uint8_t *into)>;

// The data_reader of bytes in host memory from `data` on.
inline data_reader memory_reader(const void *data) {
  return [from = static_cast<const std::uint8_t *>(data)](std::uint64_t offset, std::uint64_t n,
                                                          std::uint8_t *into) {
    std::memcpy(into, from + offset, n);
  };
}

// An input's leaves on the device: `count` digests at the start of `buffer`.
struct device_leaves {
  cl::Buffer buffer;
  std::uint64_t count = 0;
  std::uint64_t input_bytes = 0; // the input's length
  // The input itself where it is at most one BLAKE3 chunk (1024 bytes) long: a one-chunk
  // input's root is its chunk finished as the root, which its chaining value does not give.
  std::vector<std::uint8_t> small_input;
};

class block_hasher {
public:
  explicit block_hasher(const cl::Device &device)
      : block_hasher(detail::shared_context(device), device) {}

  // For buffers of the caller's own context: `device` must belong to `context`.
  block_hasher(const cl::Context &context, const cl::Device &device) try
      : runtime_(context, device), local_(std::min(runtime_.tuning_row().block_work_group_size,
                                                   runtime_.facts().max_work_group_size)),
        piece_target_(runtime_.tuning_row().block_piece_bytes), queue_(runtime_.make_queue()),
        transfer_(runtime_.make_queue()),
        pipeline_(runtime_.context(), transfer_, runtime_.shares_host_memory()) {
  } catch (...) {
    detail::rethrow_in_step(
        [&] { return "setting up block hashing on " + detail::name_in_message(device); });
  }

  const cl::Context &context() const { return runtime_.context(); }
  const cl::Device &device() const { return runtime_.device(); }
  // The queue of the kernels (in order, with profiling): work on the leaves goes after them here.
  const cl::CommandQueue &queue() const { return queue_; }

  // Device buffers: enqueues, after `wait`, the leaves of the `bytes` bytes of `in` from byte
  // in_offset (ceil(bytes / L) blocks) into `out` from node out_first on; returns its event.
  cl::Event enqueue_leaves(const leaf_rule &rule, const cl::Buffer &in, std::uint64_t in_offset,
                           std::uint64_t bytes, const cl::Buffer &out, std::uint64_t out_first,
                           const std::vector<cl::Event> &wait = {}) {
    check_leaf_rule(rule);
    const std::uint64_t blocks = block_count(bytes, rule.block_bytes);
    const auto step = [&] {
      return "enqueueing the leaves of " + std::to_string(blocks) + " blocks on " +
             runtime_.facts().name;
    };
    return detail::in_step(step, [&] {
      runtime_.check_buffer(in, "in", in_offset + bytes, "block_hasher", "data");
      runtime_.check_buffer(out, "out", (out_first + blocks) * node_bytes, "block_hasher",
                            "leaves");
      const leaf_hash_row &row = row_of(rule.hash);
      if (row.family == leaf_family::sha256) {
        const sha256_prefix prefix = split_prefix(rule.prefix);
        cl::Kernel &sha256 =
            built(sha256_, detail::sha256_block_leaves_program(), "sha256_block_leaves");
        detail::set_args(sha256, in, cl_ulong(in_offset), cl_ulong(bytes),
                         cl_ulong(rule.block_bytes), prefix.midstate, prefix.tail,
                         cl_uint(rule.prefix.size() % sha256::block_len), cl_ulong(prefix.head),
                         cl_int(rule.zero_pad), out, cl_ulong(out_first));
        return launch(sha256, blocks, wait);
      }
      if (row.family == leaf_family::keccak_sponge) {
        cl::Kernel &keccak = built(keccak_, detail::keccak_program(), "keccak_block_leaves");
        detail::set_args(keccak, in, cl_ulong(in_offset), cl_ulong(bytes),
                         cl_ulong(rule.block_bytes), cl_uint(row.keccak_pad), cl_int(rule.zero_pad),
                         out, cl_ulong(out_first));
        return launch(keccak, blocks, wait);
      }
      const blake3_mode mode =
          rule.key ? blake3_mode::keyed(rule.key->data()) : blake3_mode::hash();
      return enqueue_blake3(in, in_offset, bytes, rule.block_bytes, mode, rule.zero_pad, false, 0,
                            out, out_first, wait);
    });
  }

  // Device buffers: the chaining values of the chunks of `bytes` bytes of `in` (1024 bytes each,
  // the last maybe shorter), which are chunks first_chunk, first_chunk + 1, ... of an input.
  cl::Event enqueue_chunk_cvs(const cl::Buffer &in, std::uint64_t bytes, std::uint64_t first_chunk,
                              const cl::Buffer &out, std::uint64_t out_first,
                              const std::vector<cl::Event> &wait = {}) {
    const auto step = [&] {
      return "enqueueing the chaining values of " + std::to_string(bytes) + " bytes on " +
             runtime_.facts().name;
    };
    return detail::in_step(step, [&] {
      return enqueue_blake3(in, 0, bytes, blake3::chunk_len, blake3_mode::hash(), false, true,
                            first_chunk, out, out_first, wait);
    });
  }

  // The leaves of an input's blocks (at least one byte), streamed through the device; errors
  // name the input.
  device_leaves leaves_of(input &in, const leaf_rule &rule) {
    check_leaf_rule(rule);
    return stream(in, rule.block_bytes, leaf_kernel(rule));
  }

  // An input's leaves as they are (N >= 1 leaves of 32 bytes), uploaded into one buffer.
  device_leaves leaves_as_given(input &in) {
    device_leaves leaves = stream(in, node_bytes, leaf_copy());
    try {
      leaf_count_of(leaves.input_bytes);
    } catch (const error &e) {
      throw error(in.name() + ": " + e.what());
    }
    return leaves;
  }

  // The same over bytes [offset, offset + bytes) of data that `read` gives (on this thread, a
  // piece at a time): a part of a tree whose data several devices or ranks share. `what` names
  // the data in errors.
  device_leaves leaves_of(const data_reader &read, std::uint64_t offset, std::uint64_t bytes,
                          const leaf_rule &rule, const std::string &what) {
    check_leaf_rule(rule);
    return stream_range(read, offset, bytes, what, rule.block_bytes, leaf_kernel(rule));
  }
  device_leaves leaves_as_given(const data_reader &read, std::uint64_t offset, std::uint64_t bytes,
                                const std::string &what) {
    if (bytes % node_bytes != 0)
      throw error(what + ": " + std::to_string(bytes) + " bytes are not whole 32-byte leaves");
    return stream_range(read, offset, bytes, what, node_bytes, leaf_copy());
  }

  // The chaining values of an input's BLAKE3 chunks (an empty input has none here: its one empty
  // chunk is small_input's), streamed through the device.
  device_leaves chunk_cvs_of(input &in) { return stream(in, blake3::chunk_len, chunk_cvs()); }

  // The same over the first `bytes` bytes of data that `read` gives (host memory, for one).
  device_leaves chunk_cvs_of(const data_reader &read, std::uint64_t bytes,
                             const std::string &what) {
    return stream_range(read, 0, bytes, what, blake3::chunk_len, chunk_cvs());
  }

  // A device buffer of `bytes` bytes, refused with a message naming `what` where the device
  // allows no buffer that large.
  cl::Buffer device_buffer(std::uint64_t bytes, const std::string &what) const {
    return runtime_.buffer(bytes, what);
  }

  // The times of the last leaves_of or chunk_cvs_of: uploads and kernels, profiled.
  build_times last_times() const {
    return {events_ms(log_.uploads), events_ms(log_.kernels), 0, 0, log_.kernels.size(), pieces_};
  }

  // Inputs stream in pieces of about this many bytes (the tuning row's, block_piece_bytes,
  // unless set; tests set less).
  void set_piece_target(std::uint64_t bytes) { piece_target_ = std::max<std::uint64_t>(1, bytes); }
  std::uint64_t piece_target() const { return piece_target_; }
  // Work-items a work-group of the leaf kernels: the tuning row's, at most the device's limit.
  std::size_t work_group_size() const { return local_; }

  // Bytes of the pieces an input streams in, for blocks of `block_bytes` bytes: a whole number
  // of blocks, about the piece target (one block where blocks are larger), no more than `size`
  // needs.
  std::uint64_t piece_bytes(std::uint64_t block_bytes, std::optional<std::uint64_t> size) const {
    std::uint64_t blocks = std::max<std::uint64_t>(1, piece_target_ / block_bytes);
    if (size)
      blocks = std::max<std::uint64_t>(1, std::min(blocks, block_count(*size, block_bytes)));
    return blocks * block_bytes;
  }

private:
  // A SHA-256 prefix as the kernel takes it: its whole 64-byte blocks compressed into a
  // midstate, the rest (under 64 bytes) in a small constant buffer.
  struct sha256_prefix {
    cl_uint8 midstate;
    cl::Buffer tail;
    std::uint64_t head;
  };

  sha256_prefix split_prefix(const std::vector<std::uint8_t> &prefix) const {
    sha256_prefix split;
    split.head = prefix.size() / sha256::block_len * sha256::block_len;
    sha256::state h{sha256::iv[0], sha256::iv[1], sha256::iv[2], sha256::iv[3],
                    sha256::iv[4], sha256::iv[5], sha256::iv[6], sha256::iv[7]};
    for (std::uint64_t at = 0; at < split.head; at += sha256::block_len)
      sha256::compress(h, prefix.data() + at);
    for (int i = 0; i < 8; ++i)
      split.midstate.s[i] = h[i];
    std::uint8_t tail[sha256::block_len] = {};
    std::copy(prefix.begin() + static_cast<std::ptrdiff_t>(split.head), prefix.end(), tail);
    split.tail = runtime_.copy_of(tail, sizeof tail);
    return split;
  }

  cl::Event enqueue_blake3(const cl::Buffer &in, std::uint64_t in_offset, std::uint64_t bytes,
                           std::uint64_t block_bytes, const blake3_mode &mode, bool zero_pad,
                           bool chunk_cvs, std::uint64_t first_chunk, const cl::Buffer &out,
                           std::uint64_t out_first, const std::vector<cl::Event> &wait) {
    cl_uint8 key;
    for (int i = 0; i < 8; ++i)
      key.s[i] = mode.key[i];
    cl::Kernel &blake3 =
        built(blake3_, detail::blake3_block_leaves_program(), "blake3_block_leaves");
    detail::set_args(blake3, in, cl_ulong(in_offset), cl_ulong(bytes), cl_ulong(block_bytes), key,
                     cl_uint(mode.flags), cl_int(zero_pad), cl_int(chunk_cvs),
                     cl_ulong(first_chunk), out, cl_ulong(out_first));
    return launch(blake3, block_count(bytes, block_bytes), wait);
  }

  // A leaf hash's kernel, built on first use: a hasher compiles only the programs of the leaf
  // hashes it runs (most never hash BLAKE3 or Keccak leaves, or SHA-256 ones).
  cl::Kernel &built(cl::Kernel &kernel, const program_spec &program, const char *name) {
    if (!kernel()) kernel = runtime_.kernel(program, name, local_);
    return kernel;
  }

  // A kernel of the stream under way, kept for last_times. Only streams log: callers of
  // enqueue_leaves keep their own events, so a long-lived hasher holds none past its last stream.
  cl::Event logged(const cl::Event &kernel) {
    log_.kernels.push_back(kernel);
    return kernel;
  }

  cl::Event launch(const cl::Kernel &kernel, std::uint64_t items,
                   const std::vector<cl::Event> &wait) {
    if (items == 0) {
      cl::Event marker;
      detail::call("clEnqueueMarkerWithWaitList",
                   [&] { return queue_.enqueueMarkerWithWaitList(&wait, &marker); });
      return marker;
    }
    return detail::launch(queue_, kernel, items, local_, wait);
  }

  // What stream does with each piece: enqueues, after `wait`, its leaves from block `first` on
  // into `out`, and returns the event of that.
  using piece_work =
      std::function<cl::Event(const cl::Buffer &piece, std::uint64_t bytes, std::uint64_t first,
                              const cl::Buffer &out, const std::vector<cl::Event> &wait)>;

  // Hashes the piece's blocks into leaves.
  piece_work leaf_kernel(const leaf_rule &rule) {
    return [this, &rule](const cl::Buffer &piece, std::uint64_t bytes, std::uint64_t first,
                         const cl::Buffer &out, const std::vector<cl::Event> &wait) {
      return logged(enqueue_leaves(rule, piece, 0, bytes, out, first, wait));
    };
  }

  // Computes the chaining values of the piece's chunks, which are the input's chunks from
  // `first` on.
  piece_work chunk_cvs() {
    return [this](const cl::Buffer &piece, std::uint64_t bytes, std::uint64_t first,
                  const cl::Buffer &out, const std::vector<cl::Event> &wait) {
      return logged(enqueue_chunk_cvs(piece, bytes, first, out, first, wait));
    };
  }

  // Copies the piece: leaves as given.
  piece_work leaf_copy() {
    return [this](const cl::Buffer &piece, std::uint64_t bytes, std::uint64_t first,
                  const cl::Buffer &out, const std::vector<cl::Event> &wait) {
      cl::Event copied;
      detail::call("clEnqueueCopyBuffer", [&] {
        return bytes == 0 ? queue_.enqueueMarkerWithWaitList(&wait, &copied)
                          : queue_.enqueueCopyBuffer(piece, out, 0, first * node_bytes, bytes,
                                                     &wait, &copied);
      });
      return copied;
    };
  }

  // Streams an input through the device in pieces of whole blocks of `block_bytes`, each hashed
  // by hash(piece, bytes, first block, leaves, wait) into one buffer of leaves.
  template <class Hash>
  device_leaves stream(input &in, std::uint64_t block_bytes, const Hash &hash) {
    const std::uint64_t piece = piece_bytes(block_bytes, in.size());
    device_leaves result;
    if (in.read_at_offsets()) {
      detail::file_pieces source(in, piece);
      result = stream_pieces(source, in.size(), in.name(), block_bytes, hash);
    } else {
      const detail::piece_reader read = detail::stream_reader(in);
      detail::reader_pieces source(read, piece);
      result = stream_pieces(source, in.size(), in.name(), block_bytes, hash);
    }
    in.check_unchanged();
    return result;
  }

  // The same over bytes [offset, offset + bytes) of what `read` gives.
  template <class Hash>
  device_leaves stream_range(const data_reader &read, std::uint64_t offset, std::uint64_t bytes,
                             const std::string &what, std::uint64_t block_bytes, const Hash &hash) {
    std::uint64_t at = offset;
    const detail::piece_reader next = [&](std::uint8_t *into, std::size_t capacity) {
      const std::uint64_t n = std::min<std::uint64_t>(capacity, offset + bytes - at);
      if (n > 0) read(at, n, into);
      at += n;
      return static_cast<std::size_t>(n);
    };
    detail::reader_pieces source(next, piece_bytes(block_bytes, bytes));
    return stream_pieces(source, bytes, what, block_bytes, hash);
  }

  // The pieces of `source` (`size` bytes in all where known) hashed into one buffer of leaves.
  template <class Source, class Hash>
  device_leaves stream_pieces(Source &source, std::optional<std::uint64_t> size,
                              const std::string &name, std::uint64_t block_bytes,
                              const Hash &hash) {
    log_.clear();
    const std::uint64_t piece = source.piece_bytes();
    device_leaves result;
    const auto step = [&] {
      return "hashing the blocks of " + name + " on " + runtime_.facts().name;
    };
    // Nothing in flight may still use the staging once this has failed.
    const detail::drain_on_unwind drained{&transfer_, &queue_};
    detail::in_step(step, [&] {
      if (size) reserve(result, block_count(*size, block_bytes), name);
      pieces_ = pipeline_.run(source, log_.uploads,
                              [&](const cl::Buffer &buffer, std::uint64_t bytes, std::uint64_t j,
                                  bool last, const std::vector<cl::Event> &uploaded) {
                                const std::uint64_t first = j * (piece / block_bytes);
                                result.input_bytes = j * piece + bytes;
                                reserve(result, first + block_count(bytes, block_bytes), name);
                                if (j == 0 && last && bytes <= blake3::chunk_len)
                                  keep_small_input(result, buffer, bytes);
                                return hash(buffer, bytes, first, result.buffer, uploaded);
                              });
      detail::call("clFinish", [&] { return queue_.finish(); });
    });
    result.count = block_count(result.input_bytes, block_bytes);
    return result;
  }

  // Makes the leaves' buffer hold `count` leaves, keeping those already there (a pipe's leaves
  // grow as it is read: the buffer doubles, copied on the kernels' queue).
  void reserve(device_leaves &leaves, std::uint64_t count, const std::string &name) {
    const std::uint64_t needed = std::max<std::uint64_t>(count, 1) * node_bytes;
    if (needed <= capacity_of(leaves)) return;
    const std::uint64_t bytes = std::max(needed, 2 * capacity_of(leaves));
    cl::Buffer grown = runtime_.buffer(bytes, "the leaves of " + name);
    if (leaves.buffer()) {
      detail::call("clEnqueueCopyBuffer", [&] {
        return queue_.enqueueCopyBuffer(leaves.buffer, grown, 0, 0, capacity_of(leaves));
      });
    }
    leaves.buffer = grown;
  }

  static std::uint64_t capacity_of(const device_leaves &leaves) {
    std::size_t bytes = 0;
    if (leaves.buffer())
      detail::call("clGetMemObjectInfo",
                   [&] { return leaves.buffer.getInfo(CL_MEM_SIZE, &bytes); });
    return bytes;
  }

  void keep_small_input(device_leaves &leaves, const cl::Buffer &buffer, std::uint64_t bytes) {
    leaves.small_input.resize(static_cast<std::size_t>(bytes));
    if (bytes == 0) return;
    detail::call("clEnqueueReadBuffer", [&] {
      return transfer_.enqueueReadBuffer(buffer, CL_TRUE, 0, bytes, leaves.small_input.data());
    });
  }

  detail::device_runtime runtime_;
  std::size_t local_;          // the tuning row's work-group size, at most the device's
  std::uint64_t piece_target_; // the tuning row's piece size, unless set_piece_target
  cl::CommandQueue queue_;     // kernels
  cl::CommandQueue transfer_;  // uploads, overlapping the kernels of the piece before
  detail::piece_pipeline pipeline_;
  cl::Kernel sha256_, blake3_, keccak_;
  detail::event_log log_;
  std::uint64_t pieces_ = 0;
};

} // namespace merklize
