// SPDX-License-Identifier: Apache-2.0 OR MIT
// blake3_device: BLAKE3 of whole inputs on one OpenCL device, bit-exact with the official BLAKE3,
// for any input length, in the three modes (hash, keyed_hash, derive_key) and with extendable
// output of any length.
//
//   merklize::blake3_device b3;                        // default device (see device.hpp)
//   merklize::digest d = b3.hash(data, size);          // 32 bytes, as blake3::hash
//   b3.hash(merklize::blake3_mode::keyed(key), data, size, out, 100); // 100 bytes of output
//
// The device computes every chunk's chaining value (one chunk per work-item, or 2..16 chunks per
// work-item in the lanes of uint2..uint16: chunk_strategy), merges them into BLAKE3's parent tree
// with work-group reductions in local memory, and finishes the root with the ROOT flag into as
// many output bytes as asked. Inputs larger than the device holds (max_device_bytes) are
// streamed: cut into pieces of a power-of-two number of chunks, each reduced on the device to its
// subtree's chaining value while the next piece is read and uploaded, the few subtree roots then
// merged on the host. hash_stream does the same for a reader (stdin, a pipe), hash_file for a
// file: a regular file is read by several threads two pieces ahead of the piece uploading.
//
// Like merkleizer, a blake3_device is not thread-safe; use one per thread.
#pragma once

#include "../io/input.hpp"
#include "../pipeline/piece_pipeline.hpp"
#include "../plan/hash_config.hpp"
#include "../runtime/kernels.hpp"
#include "../runtime/profiling.hpp"
#include "../runtime/queue_drain.hpp"
#include "../runtime/runtime.hpp"

#include <algorithm>
#include <array>
#include <chrono>
#include <cstring>
#include <deque>
#include <functional>
#include <limits>
#include <optional>
#include <string>
#include <vector>

namespace merklize {

// The strategy blake3_device takes on `device` when none is asked for (hash_config.hpp).
inline chunk_strategy default_chunk_strategy(const cl::Device &device) {
  const device_facts facts = read_device_facts(device);
  return default_chunk_strategy(facts, tuning_for(facts));
}

class blake3_device {
public:
  // Fills `buffer` with up to `capacity` bytes of input and returns how many; 0 only at the end.
  using reader = detail::piece_reader;
  // Takes the output in pieces, in order, each of at most 16 MiB: a long output (an extendable
  // output of gigabytes) needs no buffer of its length. Called only once the input is all read.
  using output_sink = std::function<void(const std::uint8_t *bytes, std::size_t size)>;
  static constexpr std::uint64_t unknown_size = std::numeric_limits<std::uint64_t>::max();

  explicit blake3_device(hash_config cfg = {}) : blake3_device(default_device(), cfg) {}

  explicit blake3_device(const cl::Device &device, hash_config cfg = {})
      : blake3_device(detail::shared_context(device), device, cfg) {}

  // For buffers of the caller's own context: `device` must belong to `context`.
  blake3_device(const cl::Context &context, const cl::Device &device, hash_config cfg = {}) try
      : runtime_(context, device), config_(checked(cfg)),
        strategy_(cfg.strategy == chunk_strategy::automatic
                      ? default_chunk_strategy(runtime_.facts(), runtime_.tuning_row())
                      : cfg.strategy),
        chunk_local_(cfg.work_group_size ? cfg.work_group_size
                                         : runtime_.tuning_row().hash_work_group_size),
        queue_(runtime_.make_queue()), transfer_(runtime_.make_queue()),
        pipeline_(runtime_.context(), transfer_, runtime_.shares_host_memory()) {
    load_kernels();
  } catch (...) {
    detail::rethrow_in_step(
        [&] { return "setting up BLAKE3 hashing on " + detail::name_in_message(device); });
  }

  const cl::Context &context() const { return runtime_.context(); }
  const cl::Device &device() const { return runtime_.device(); }
  // The queue the kernels run on (in order, with profiling).
  const cl::CommandQueue &queue() const { return queue_; }
  const hash_config &configuration() const { return config_; }
  chunk_strategy strategy() const { return strategy_; }
  const hash_times &last_times() const { return last_; }
  // Where the kernels came from: compiled now, ahead of time, or the disk cache (programs.hpp).
  merklize::program_form program_form() const { return program_.form; }

  // Inputs up to this many bytes are hashed in one piece; longer ones are streamed.
  std::uint64_t device_bytes_limit() const {
    const device_facts &f = runtime_.facts();
    const std::uint64_t device_limit =
        std::min<std::uint64_t>(f.max_buffer_bytes, f.global_memory_bytes / 2);
    return config_.max_device_bytes ? std::min(config_.max_device_bytes, device_limit)
                                    : device_limit;
  }

  digest hash(const void *data, std::uint64_t size) {
    return to_digest(blake3_mode::hash(), data, size);
  }
  digest keyed_hash(const std::uint8_t key[blake3::key_len], const void *data, std::uint64_t size) {
    return to_digest(blake3_mode::keyed(key), data, size);
  }
  digest derive_key(const std::string &context, const void *material, std::uint64_t size) {
    return to_digest(blake3_mode::derive_key(context), material, size);
  }

  // `size` bytes of host memory in, the first `out_bytes` bytes of the extendable output out.
  void hash(const blake3_mode &mode, const void *data, std::uint64_t size, std::uint8_t *out,
            std::uint64_t out_bytes) {
    hash(mode, data, size, into(out), out_bytes);
  }
  void hash(const blake3_mode &mode, const void *data, std::uint64_t size, const output_sink &out,
            std::uint64_t out_bytes) {
    if (size > device_bytes_limit()) {
      auto at = static_cast<const std::uint8_t *>(data);
      std::uint64_t left = size;
      hash_stream(
          mode,
          [&](std::uint8_t *buffer, std::size_t capacity) {
            const std::size_t take =
                static_cast<std::size_t>(std::min<std::uint64_t>(capacity, left));
            std::memcpy(buffer, at, take);
            at += take;
            left -= take;
            return take;
          },
          out, out_bytes, size);
      return;
    }
    guarded("hashing " + std::to_string(size) + " bytes", [&] {
      pipeline_.release_device_buffers(); // the device holds one path's input at a time
      runtime_.grow(input_, input_bytes_, std::max<std::uint64_t>(size, 1));
      std::vector<cl::Event> wait;
      if (size > 0)
        wait.push_back(detail::enqueue_upload(transfer_, input_, data, size, {}, log_.uploads));
      bool is_parent = false;
      const cl::Buffer &root = enqueue_tree(mode, input_, size, 0, true, wait, is_parent);
      read_output(mode, root, is_parent, out, out_bytes);
      finish_times(1);
    });
  }

  // The input comes from `read` until it returns 0; size_hint (the input's size if known) only
  // sizes the buffers. Reading overlaps the device's work on the previous piece.
  void hash_stream(const blake3_mode &mode, const reader &read, std::uint8_t *out,
                   std::uint64_t out_bytes, std::uint64_t size_hint = unknown_size) {
    hash_stream(mode, read, into(out), out_bytes, size_hint);
  }
  void hash_stream(const blake3_mode &mode, const reader &read, const output_sink &out,
                   std::uint64_t out_bytes, std::uint64_t size_hint = unknown_size) {
    guarded("hashing a stream", [&] {
      detail::reader_pieces source(read, stream_piece_bytes(size_hint));
      hash_pieces(mode, source, out, out_bytes);
    });
  }

  // An input (input.hpp): a regular file of more than 1 MiB is hashed as it is when opened,
  // pieces of it read straight into page-locked staging by its read threads, two pieces ahead of
  // the one uploading; anything else (a small file, a pipe, a device) is read to its end by this
  // thread, as hash_stream reads. A file that cannot be read, or that shrinks or grows while it
  // is read, is a file_error naming it, and nothing is given to `out`.
  void hash(const blake3_mode &mode, input &in, const output_sink &out, std::uint64_t out_bytes) {
    if (!in.read_at_offsets()) {
      // Also what keeps b3sum's answer for files whose size says nothing, as in /proc and /sys.
      guarded("hashing " + in.name(), [&] {
        const reader read = detail::stream_reader(in);
        detail::reader_pieces source(read, stream_piece_bytes(in.size().value_or(unknown_size)));
        hash_pieces(mode, source, out, out_bytes);
      });
      return;
    }
    guarded("hashing " + in.name(), [&] {
      detail::file_pieces source(in, stream_piece_bytes(*in.size()));
      hash_pieces(mode, source, out, out_bytes, [&] { in.check_unchanged(); });
    });
  }

  // The file at `path`, read by hash_config::file_read_threads threads (see hash(input)).
  void hash_file(const blake3_mode &mode, const std::string &path, std::uint8_t *out,
                 std::uint64_t out_bytes) {
    hash_file(mode, path, into(out), out_bytes);
  }
  void hash_file(const blake3_mode &mode, const std::string &path, const output_sink &out,
                 std::uint64_t out_bytes) {
    input in(path);
    in.set_read_threads(config_.file_read_threads);
    hash(mode, in, out, out_bytes);
  }

  digest hash_file(const std::string &path) {
    digest d;
    hash_file(blake3_mode::hash(), path, d.data(), d.size());
    return d;
  }

  // Bytes of one streamed piece for an input of `size` bytes (unknown_size if not known): a
  // power-of-two number of chunks (so pieces are subtrees of BLAKE3's tree), two of which fit
  // device_bytes_limit(), at most 64 MiB, and no more than the input needs.
  std::uint64_t stream_piece_bytes(std::uint64_t size) const {
    const std::uint64_t cap = std::min(device_bytes_limit() / 2, max_stream_piece);
    std::uint64_t piece = blake3::chunk_len;
    while (piece * 2 <= cap)
      piece *= 2;
    while (size != unknown_size && piece > blake3::chunk_len && piece / 2 >= size)
      piece /= 2;
    return piece;
  }

  // Device buffers in and out: hashes bytes [0, size) of `input` and writes the first out_bytes
  // bytes of the output to `output`. Waits for `wait` first; returns the events it enqueued, the
  // last one completing the output. Nothing is read back.
  std::vector<cl::Event> enqueue_hash(const blake3_mode &mode, const cl::Buffer &input,
                                      std::uint64_t size, const cl::Buffer &output,
                                      std::uint64_t out_bytes,
                                      const std::vector<cl::Event> &wait = {}) {
    log_.clear();
    const detail::drain_on_unwind drained(queue_); // none of it runs on once this has failed
    const auto step = [&] {
      return "enqueueing the BLAKE3 of " + std::to_string(size) + " bytes on " +
             runtime_.facts().name;
    };
    return detail::in_step(step, [&] {
      runtime_.check_buffer(input, "input", size, "blake3_device", "hash");
      runtime_.check_buffer(output, "output", out_bytes, "blake3_device", "output");
      bool is_parent = false;
      const cl::Buffer &root = enqueue_tree(mode, input, size, 0, true, wait, is_parent);
      if (out_bytes > 0) enqueue_output(mode, root, is_parent, 0, out_bytes, output);
      return log_.kernels;
    });
  }

private:
  static constexpr std::uint64_t max_stream_piece = std::uint64_t(64) << 20;
  static constexpr std::uint64_t max_output_piece = std::uint64_t(16) << 20;
  static hash_config checked(const hash_config &cfg) {
    if (cfg.max_device_bytes != 0 && cfg.max_device_bytes < 2 * blake3::chunk_len)
      throw error("max_device_bytes is " + std::to_string(cfg.max_device_bytes) +
                  ", less than the 2048 bytes (two chunks) streaming needs");
    return cfg;
  }

  void load_kernels() {
    const auto spec = detail::hash_program(chunks_per_work_item(strategy_));
    program_ = runtime_.program(spec);
    chunk_cvs_ = runtime_.kernel(spec, "blake3_chunk_cvs", chunk_local_);
    parents_ = runtime_.kernel(spec, "blake3_parents", 1);
    single_chunk_root_ = runtime_.kernel(spec, "blake3_single_chunk_root", 1);
    root_output_ = runtime_.kernel(spec, "blake3_root_output", chunk_local_);
    // blake3_parents merges 2^levels nodes with 2^(levels - 1) work-items.
    const std::size_t parent_items =
        std::min(runtime_.tuning_row().batch_work_group_size,
                 detail::work_group_limit(parents_, runtime_.device()));
    max_parent_levels_ = 1;
    while ((std::size_t(1) << max_parent_levels_) <= parent_items)
      ++max_parent_levels_;
  }

  // Runs a host call, `what` its step ("hashing FILE"); on failure waits for what was enqueued
  // (so no command still uses the caller's memory or the scratch buffers) before passing the
  // error on.
  template <class F> void guarded(const std::string &what, F &&body) {
    started_ = std::chrono::steady_clock::now();
    log_.clear();
    const detail::drain_on_unwind drained{&transfer_, &queue_};
    detail::in_step([&] { return what + " on " + runtime_.facts().name; }, body);
  }

  digest to_digest(const blake3_mode &mode, const void *data, std::uint64_t size) {
    digest d;
    hash(mode, data, size, d.data(), d.size());
    return d;
  }

  static std::uint64_t chunk_count(std::uint64_t bytes) {
    return bytes == 0 ? 1 : (bytes + blake3::chunk_len - 1) / blake3::chunk_len;
  }

  // Enqueues the kernels over `bytes` bytes of `input`, chunk 0 of which is chunk `first_chunk`
  // of the whole input. With `whole` the input is all there is and the result is the root node,
  // a parent (its two children) or, for one chunk, a chunk's last block (is_parent says which);
  // otherwise it is the chaining value of the piece's subtree. Returns the buffer whose start
  // holds the result.
  const cl::Buffer &enqueue_tree(const blake3_mode &mode, const cl::Buffer &input,
                                 std::uint64_t bytes, std::uint64_t first_chunk, bool whole,
                                 const std::vector<cl::Event> &wait, bool &is_parent) {
    const std::uint64_t chunks = chunk_count(bytes);
    const cl_uint8 key = key_words(mode);
    if (whole && chunks == 1) {
      runtime_.grow(node_, node_bytes_, root_node_bytes);
      detail::set_args(single_chunk_root_, input, cl_uint(bytes), key, cl_uint(mode.flags), node_);
      launch(single_chunk_root_, 1, 1, wait);
      is_parent = false;
      return node_;
    }
    runtime_.grow(cvs_[0], cvs_bytes_[0], chunks * node_bytes);
    runtime_.grow(cvs_[1], cvs_bytes_[1], (chunks + 1) / 2 * node_bytes);
    detail::set_args(chunk_cvs_, input, cl_ulong(bytes), cl_ulong(first_chunk), key,
                     cl_uint(mode.flags), cvs_[0]);
    const std::uint64_t items =
        (chunks + chunks_per_work_item(strategy_) - 1) / chunks_per_work_item(strategy_);
    launch(chunk_cvs_, items, chunk_local_, wait);
    // A whole input stops at the root's two children, a piece at its subtree's root.
    unsigned levels = detail::ceil_log2(chunks) - (whole ? 1 : 0);
    std::uint64_t count = chunks;
    int from = 0;
    while (levels > 0) {
      const unsigned step = std::min(levels, max_parent_levels_);
      const std::uint64_t groups = (count + (std::uint64_t(1) << step) - 1) >> step;
      const std::size_t local = std::size_t(1) << (step - 1);
      detail::set_args(parents_, cvs_[from], cl_ulong(count), cl_uint(step), key,
                       cl_uint(mode.flags), cvs_[1 - from], cl::Local(local * node_bytes));
      launch(parents_, groups * local, local, {});
      count = groups;
      from = 1 - from;
      levels -= step;
    }
    is_parent = true;
    return cvs_[from];
  }

  // Streams a source's pieces to the device, each reduced there to its subtree's chaining value
  // while the next ones are read and uploaded, then merges those values on the host and
  // computes the output. An input of one piece is hashed whole.
  // `before_output` runs once the input is all read, before any output is given.
  template <class Source, class Check = void (*)()>
  void hash_pieces(
      const blake3_mode &mode, Source &source, const output_sink &out, std::uint64_t out_bytes,
      Check before_output = [] {}) {
    input_ = cl::Buffer(); // the device holds one path's input at a time
    input_bytes_ = 0;
    subtrees_.clear();
    const std::uint64_t chunks_per_piece = source.piece_bytes() / blake3::chunk_len;
    const cl::Buffer *root = nullptr;
    bool is_parent = false;
    const std::uint64_t pieces = pipeline_.run(
        source, log_.uploads,
        [&](const cl::Buffer &input, std::uint64_t bytes, std::uint64_t j, bool last,
            const std::vector<cl::Event> &uploaded) {
          if (j > 0 || !last)
            return enqueue_subtree(mode, input, bytes, j * chunks_per_piece, uploaded);
          root = &enqueue_tree(mode, input, bytes, 0, true, uploaded, is_parent);
          return cl::Event();
        });
    if (pieces > 1) {
      detail::call("clFinish", [&] { return queue_.finish(); });
      write_parent_root(mode, subtrees_);
      root = &node_;
      is_parent = true;
    }
    before_output();
    read_output(mode, *root, is_parent, out, out_bytes);
    finish_times(pieces);
  }

  // Enqueues the reduction of a piece to its subtree's chaining value and the read of that value
  // into subtrees_ (not waited for). Returns the event after which the piece's buffer is free.
  cl::Event enqueue_subtree(const blake3_mode &mode, const cl::Buffer &input, std::uint64_t bytes,
                            std::uint64_t first_chunk, const std::vector<cl::Event> &wait) {
    bool is_parent = false;
    const cl::Buffer &cv = enqueue_tree(mode, input, bytes, first_chunk, false, wait, is_parent);
    const cl::Event consumed = log_.kernels.back();
    subtrees_.emplace_back();
    log_.downloads.emplace_back();
    detail::call("clEnqueueReadBuffer", [&] {
      return queue_.enqueueReadBuffer(cv, CL_FALSE, 0, node_bytes, subtrees_.back().data(), nullptr,
                                      &log_.downloads.back());
    });
    detail::call("clFlush", [&] { return queue_.flush(); });
    return consumed;
  }

  // Enqueues the root's output bytes [64 * first_block, 64 * first_block + out_bytes) into out.
  void enqueue_output(const blake3_mode &mode, const cl::Buffer &root, bool is_parent,
                      std::uint64_t first_block, std::uint64_t out_bytes, const cl::Buffer &out) {
    detail::set_args(root_output_, root, cl_int(is_parent), key_words(mode), cl_uint(mode.flags),
                     cl_ulong(first_block), cl_ulong(out_bytes), out);
    const std::uint64_t blocks = (out_bytes + blake3::block_len - 1) / blake3::block_len;
    launch(root_output_, blocks, chunk_local_, {});
  }

  // A sink that copies the output to `out`, piece after piece.
  static output_sink into(std::uint8_t *out) {
    return [out](const std::uint8_t *bytes, std::size_t size) mutable {
      std::memcpy(out, bytes, size);
      out += size;
    };
  }

  // The output, in pieces that the output buffer holds, read back and handed to `out`.
  void read_output(const blake3_mode &mode, const cl::Buffer &root, bool is_parent,
                   const output_sink &out, std::uint64_t out_bytes) {
    const std::uint64_t piece =
        std::min(output_piece_bytes(), std::max<std::uint64_t>(out_bytes, 1));
    runtime_.grow(output_, output_bytes_, piece);
    std::vector<std::uint8_t> host(static_cast<std::size_t>(std::min(piece, out_bytes)));
    for (std::uint64_t done = 0; done < out_bytes; done += piece) {
      const std::uint64_t take = std::min(piece, out_bytes - done);
      enqueue_output(mode, root, is_parent, done / blake3::block_len, take, output_);
      log_.downloads.emplace_back();
      detail::call("clEnqueueReadBuffer", [&] {
        return queue_.enqueueReadBuffer(output_, CL_TRUE, 0, take, host.data(), nullptr,
                                        &log_.downloads.back());
      });
      out(host.data(), static_cast<std::size_t>(take));
    }
    detail::call("clFinish", [&] { return queue_.finish(); });
  }

  // The root of a streamed input, a parent node, from its pieces' subtree roots: the merges
  // BLAKE3's tree makes above the pieces (aligned runs of the same power-of-two number of
  // chunks, the last maybe fewer), a lone last node moving up unchanged, down to the root's two
  // children, written to node_ for blake3_root_output.
  void write_parent_root(const blake3_mode &mode, std::deque<digest> level) {
    while (level.size() > 2) {
      std::deque<digest> above;
      for (std::size_t i = 0; i < level.size(); i += 2)
        above.push_back(i + 1 < level.size() ? parent_cv(mode, level[i], level[i + 1]) : level[i]);
      level.swap(above);
    }
    std::uint8_t block[blake3::block_len];
    std::memcpy(block, level[0].data(), node_bytes);
    std::memcpy(block + node_bytes, level[1].data(), node_bytes);
    runtime_.grow(node_, node_bytes_, root_node_bytes);
    detail::call("clEnqueueWriteBuffer",
                 [&] { return queue_.enqueueWriteBuffer(node_, CL_TRUE, 0, sizeof block, block); });
  }

  static digest parent_cv(const blake3_mode &mode, const digest &left, const digest &right) {
    std::uint8_t block[blake3::block_len];
    std::memcpy(block, left.data(), node_bytes);
    std::memcpy(block + node_bytes, right.data(), node_bytes);
    return blake3::cv_bytes(blake3::chaining_value(
        blake3::compress(mode.key, block, 0, blake3::block_len, mode.flags | blake3::parent)));
  }

  std::uint64_t output_piece_bytes() const {
    return std::min(max_output_piece, stream_piece_bytes(unknown_size));
  }

  // A launch of `items` work-items after `wait`, its event logged.
  void launch(const cl::Kernel &kernel, std::uint64_t items, std::size_t local,
              const std::vector<cl::Event> &wait) {
    log_.kernels.push_back(detail::launch(queue_, kernel, items, local, wait));
  }

  static cl_uint8 key_words(const blake3_mode &mode) {
    cl_uint8 key;
    for (int i = 0; i < 8; ++i)
      key.s[i] = mode.key[i];
    return key;
  }

  void finish_times(std::size_t pieces) {
    detail::call("clFinish", [&] { return transfer_.finish(); });
    last_ =
        hash_times{events_ms(log_.uploads),    events_ms(log_.kernels), events_ms(log_.downloads),
                   detail::ms_since(started_), log_.kernels.size(),     pieces};
  }

  // blake3_root_output's view of a root node: block words, chaining value, length, flags.
  static constexpr std::uint64_t root_node_bytes = 32 * 4;

  detail::device_runtime runtime_;
  hash_config config_;
  chunk_strategy strategy_;
  std::size_t chunk_local_;
  detail::built_program program_;
  cl::CommandQueue queue_;    // kernels and small reads, in order
  cl::CommandQueue transfer_; // uploads, so they overlap the kernels of the previous piece
  cl::Kernel chunk_cvs_, parents_, single_chunk_root_, root_output_;
  unsigned max_parent_levels_ = 1;
  detail::piece_pipeline pipeline_; // streamed inputs, through transfer_
  cl::Buffer input_, cvs_[2], node_, output_;
  std::uint64_t input_bytes_ = 0, cvs_bytes_[2] = {0, 0}, node_bytes_ = 0, output_bytes_ = 0;
  // Chaining values of a streamed input's pieces, in order: read back without waiting, so they
  // outlive the call that enqueued the reads even when it fails.
  std::deque<digest> subtrees_;
  detail::event_log log_;
  std::chrono::steady_clock::time_point started_;
  hash_times last_;
};

} // namespace merklize
