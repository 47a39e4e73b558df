// SPDX-License-Identifier: Apache-2.0 OR MIT
// Moving an input to the device in pieces, the reading of the next pieces overlapping the upload
// of this one and the caller's work on the one before. Shared by blake3_device, which hashes each
// piece as it arrives, and hash_bench's read + upload baseline, which does nothing more: the
// baseline moves the bytes exactly as hashing does.
//
// A source of pieces fills page-locked staging: start(j, into) begins piece j, bytes(j) waits for
// it and says how many bytes it holds (each called once, in order), is_last(j) (known once piece
// j + read_ahead has been started) whether no piece follows j.
#pragma once

#include "../io/file_read.hpp"
#include "../io/input.hpp"
#include "../runtime/buffers.hpp"
#include "../runtime/host_buffer.hpp"

#include <functional>
#include <string>
#include <vector>

namespace merklize {
namespace detail {

// Fills `buffer` with up to `capacity` bytes of input and returns how many; 0 only at the end.
using piece_reader = std::function<std::size_t(std::uint8_t *buffer, std::size_t capacity)>;

// The pieces of what a reader gives (stdin, a pipe, memory), each read on the caller's thread
// when started: piece j + 1 is read while piece j uploads. `read` must outlive this.
class reader_pieces {
public:
  static constexpr unsigned read_ahead = 1;

  reader_pieces(const piece_reader &read, std::uint64_t piece) : read_(read), piece_(piece) {}

  std::uint64_t piece_bytes() const { return piece_; }

  void start(std::uint64_t j, std::uint8_t *into) {
    have_[j % 2] = ended_ ? 0 : fill(into);
    ended_ = have_[j % 2] < piece_; // a reader is not asked again after its end
  }
  std::uint64_t bytes(std::uint64_t j) const { return have_[j % 2]; }
  bool is_last(std::uint64_t j) const { return have_[(j + 1) % 2] == 0; }

private:
  // Reads until a whole piece or the end of the input.
  std::uint64_t fill(std::uint8_t *buffer) const {
    std::uint64_t have = 0;
    while (have < piece_) {
      const std::size_t got = read_(buffer + have, static_cast<std::size_t>(piece_ - have));
      if (got == 0) break;
      if (got > piece_ - have)
        throw error("reader returned " + std::to_string(got) + " bytes, more than the " +
                    std::to_string(piece_ - have) + " asked for");
      have += got;
    }
    return have;
  }

  const piece_reader &read_;
  const std::uint64_t piece_;
  std::uint64_t have_[2] = {0, 0};
  bool ended_ = false;
};

// The pieces of a regular file of known size (the bytes it has when opened), read by several
// threads two pieces ahead of the one uploading, so that they never wait for the uploads.
class file_pieces {
public:
  static constexpr unsigned read_ahead = 2;

  file_pieces(int fd, const std::string &path, std::uint64_t size, std::uint64_t piece,
              unsigned threads)
      : size_(size), piece_(piece), reader_(fd, path, size, threads) {}

  // An input read at offsets (input::read_at_offsets()), its progress told as pieces come in.
  file_pieces(input &in, std::uint64_t piece)
      : file_pieces(in.descriptor(), in.name(), *in.size(), piece, in.read_threads(*in.size())) {
    input_ = &in;
  }

  std::uint64_t piece_bytes() const { return piece_; }

  void start(std::uint64_t j, std::uint8_t *into) {
    reader_.request(into, j * piece_, bytes_of(j));
  }
  std::uint64_t bytes(std::uint64_t j) {
    if (bytes_of(j) > 0) reader_.wait_oldest();
    if (input_) input_->add_progress(bytes_of(j));
    return bytes_of(j);
  }
  bool is_last(std::uint64_t j) const { return bytes_of(j + 1) == 0; }

private:
  std::uint64_t bytes_of(std::uint64_t j) const {
    return j * piece_ >= size_ ? 0 : std::min(piece_, size_ - j * piece_);
  }

  const std::uint64_t size_, piece_;
  parallel_file_reader reader_;
  input *input_ = nullptr;
};

// What an input gives as a stream (input::read_at_offsets() false), its progress told as it is
// read.
inline piece_reader stream_reader(input &in) {
  return [&in](std::uint8_t *buffer, std::size_t capacity) {
    const std::size_t got = in.read_some(buffer, capacity);
    in.add_progress(got);
    return got;
  };
}

inline std::vector<cl::Event> live(const cl::Event &event) {
  return event() ? std::vector<cl::Event>{event} : std::vector<cl::Event>{};
}

inline void wait_for(const cl::Event &event) {
  call("clWaitForEvents", [&] { return event.wait(); });
}

// Enqueues a copy of host memory into `to` after `wait`, adds its event to `events`, returns it.
inline cl::Event enqueue_upload(const cl::CommandQueue &queue, const cl::Buffer &to,
                                const void *from, std::uint64_t bytes,
                                const std::vector<cl::Event> &wait,
                                std::vector<cl::Event> &events) {
  cl::Event uploaded;
  call("clEnqueueWriteBuffer",
       [&] { return queue.enqueueWriteBuffer(to, CL_FALSE, 0, bytes, from, &wait, &uploaded); });
  call("clFlush", [&] { return queue.flush(); });
  events.push_back(uploaded);
  return uploaded;
}

// Page-locked staging, one buffer more than a source reads ahead, and two device buffers, so
// piece j + 1 uploads while the device works on piece j.
class piece_pipeline {
public:
  // Uploads go through `transfer`, which should be a queue of their own so that they overlap the
  // work on the pieces before. `in_place`: the device shares the host's memory (a CPU), so the
  // work reads each piece where it was read, in its page-locked staging, with no upload.
  piece_pipeline(const cl::Context &context, const cl::CommandQueue &transfer, bool in_place)
      : context_(context), transfer_(transfer), in_place_(in_place) {}

  // Runs `source` through to its end: each piece j, once its upload (event `uploaded`) is
  // enqueued, goes to on_piece(device buffer, bytes, j, is_last, uploaded), which enqueues the
  // work on it and returns the event after which the buffer may be overwritten (or none).
  // Upload events are added to `uploads`. Returns the number of pieces (at least 1).
  template <class Source, class OnPiece>
  std::uint64_t run(Source &source, std::vector<cl::Event> &uploads, OnPiece &&on_piece) {
    constexpr unsigned slots = Source::read_ahead + 1;
    reserve(source.piece_bytes(), slots);
    // Per staging buffer, its last upload and, in place, the work on its last piece; per device
    // buffer, the work on its last piece.
    cl::Event uploaded[slots], worked[slots], device_free[2];
    for (unsigned j = 0; j < Source::read_ahead; ++j)
      source.start(j, staging_[j].data());
    for (std::uint64_t j = 0;; ++j) {
      const std::uint64_t bytes = source.bytes(j);
      const unsigned slot = static_cast<unsigned>(j % slots);
      const cl::Buffer &target = in_place_ ? in_staging_[slot] : device_[j % 2];
      cl::Event upload;
      if (bytes > 0)
        upload = in_place_ ? marker()
                           : enqueue_upload(transfer_, target, staging_[slot].data(), bytes,
                                            live(device_free[j % 2]), uploads);
      // Piece j + read_ahead goes where piece j - 1 came from, once that has been uploaded (or,
      // in place, worked on).
      const unsigned next = static_cast<unsigned>((j + Source::read_ahead) % slots);
      const cl::Event &freed = in_place_ ? worked[next] : uploaded[next];
      if (freed()) wait_for(freed);
      source.start(j + Source::read_ahead, staging_[next].data());
      const bool last = source.is_last(j);
      const cl::Event done = on_piece(target, bytes, j, last, live(upload));
      uploaded[slot] = upload;
      (in_place_ ? worked[slot] : device_free[j % 2]) = done;
      if (last) return j + 1;
    }
  }

  // The queue the uploads go on.
  const cl::CommandQueue &transfer() const { return transfer_; }

  // Frees the device buffers (the staging stays for the next run).
  void release_device_buffers() {
    for (int i = 0; i < 2; ++i) {
      device_[i] = cl::Buffer();
      device_bytes_[i] = 0;
    }
  }

private:
  void reserve(std::uint64_t piece, unsigned slots) {
    if (!in_place_)
      for (int i = 0; i < 2; ++i)
        grow_buffer(context_, device_[i], device_bytes_[i], piece);
    if (staging_.size() < slots) {
      staging_.resize(slots);
      in_staging_.resize(slots);
    }
    for (unsigned s = 0; s < slots; ++s)
      if (staging_[s].size() < piece) {
        in_staging_[s] = cl::Buffer();
        staging_[s] = host_buffer(); // release the old one first
        staging_[s] = host_buffer(context_, transfer_, static_cast<std::size_t>(piece));
        if (in_place_) in_staging_[s] = wrap(staging_[s]);
      }
  }

  // A buffer the kernels read the staging's memory through, where the device shares it.
  cl::Buffer wrap(const host_buffer &staging) const {
    return create("clCreateBuffer", [&](cl_int *err) {
      return cl::Buffer(context_, CL_MEM_READ_WRITE | CL_MEM_USE_HOST_PTR, staging.size(),
                        staging.data(), err);
    });
  }

  // An event that completes at once: an in-place piece's "upload".
  cl::Event marker() const {
    cl::Event done;
    call("clEnqueueMarkerWithWaitList",
         [&] { return transfer_.enqueueMarkerWithWaitList(nullptr, &done); });
    return done;
  }

  cl::Context context_;
  cl::CommandQueue transfer_;
  bool in_place_;
  cl::Buffer device_[2];
  std::uint64_t device_bytes_[2] = {0, 0};
  std::vector<host_buffer> staging_;   // page-locked: uploads from it need no staging by the driver
  std::vector<cl::Buffer> in_staging_; // in place: the staging, as the kernels see it
};

} // namespace detail
} // namespace merklize
