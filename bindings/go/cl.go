// SPDX-License-Identifier: Apache-2.0 OR MIT

package merklize

// #include <merklize.h>
import "C"

import (
	"fmt"
	"math"
	"unsafe"
)

// The OpenCL handles of a caller's own context, as any OpenCL binding or cgo code has them: a
// cl_context, cl_device_id, cl_mem or cl_event converted to unsafe.Pointer and then to these
// types (merklize.CLMem(unsafe.Pointer(buffer))). This package needs no OpenCL binding: it only
// passes them on to libmerklize.
type (
	CLContext  unsafe.Pointer // an OpenCL cl_context
	CLDeviceID unsafe.Pointer // an OpenCL cl_device_id
	CLMem      unsafe.Pointer // an OpenCL cl_mem (a buffer)
	CLEvent    unsafe.Pointer // an OpenCL cl_event
)

// A CLDevice is a device of the caller's own OpenCL context: builders and device trees made with
// WithCLDevice take buffers of that context (Builder.BuildCL, DeviceTree.AppendCL and
// DeviceTree.UpdateCL). Open it once and make many builders with it: each device compiles its
// programs once. Close frees it; builders and trees made with it stay valid.
type CLDevice struct {
	h *handle[C.merklize_device]
}

// NewCLDevice opens device of context for merklize. Both are retained until the CLDevice and
// everything made with it are freed; the caller keeps, and releases, its own references. A
// device that is not one of the context's is ErrArgument.
func NewCLDevice(context CLContext, device CLDeviceID) (*CLDevice, error) {
	var d *C.merklize_device
	err := call(func() C.merklize_status {
		return C.merklize_device_open_cl((*C.struct__cl_context)(context),
			(*C.struct__cl_device_id)(device), &d)
	})
	if err != nil {
		return nil, err
	}
	return &CLDevice{h: newHandle(d, func(d *C.merklize_device) { C.merklize_device_free(d) })}, nil
}

// Close frees the device. Builders and trees made with it stay valid. Close always returns nil.
func (d *CLDevice) Close() error {
	if d != nil {
		d.h.close()
	}
	return nil
}

// Info describes the device, as Devices lists it.
func (d *CLDevice) Info() (info DeviceInfo, err error) {
	err = d.handle().with(func(device *C.merklize_device) error {
		info, err = describe(device)
		return err
	})
	return info, err
}

func (d *CLDevice) handle() *handle[C.merklize_device] {
	if d == nil {
		return nil
	}
	return d.h
}

// OutputNodeCount is the number of nodes Builder.BuildCL writes for leafCount leaves: the levels
// above the leaves (1 for one leaf).
func OutputNodeCount(leafCount uint64) uint64 {
	return uint64(C.merklize_output_node_count(C.uint64_t(leafCount)))
}

// BuildCL builds the tree of leafCount 32-byte leaves in the device buffer leaves into the
// buffer nodes, which receives OutputNodeCount(leafCount) nodes: level 1 first, the root (or,
// with a fixed depth above the natural one, the top stored node) last; nothing is read back.
// The device waits for the events of wait (the caller's writes of leaves) first. Binary trees of
// 32-byte leaves only, on a builder made WithCLDevice of the buffers' context.
//
// It returns an event that completes with the tree, retained for the caller, who releases it
// (clReleaseEvent) and keeps both buffers until it completes. merklize neither retains nor
// releases the buffers. A builder of another context or of another kind of tree is ErrArgument.
func (b *Builder) BuildCL(leaves CLMem, leafCount uint64, nodes CLMem, wait []CLEvent) (CLEvent, error) {
	count, events, err := waitList("Builder.BuildCL", wait)
	if err != nil {
		return nil, err
	}
	var done *C.struct__cl_event
	err = b.handle().with(func(builder *C.merklize_builder) error {
		return call(func() C.merklize_status {
			return C.merklize_build_cl(builder, (*C.struct__cl_mem)(leaves), C.uint64_t(leafCount),
				(*C.struct__cl_mem)(nodes), count, events, &done)
		})
	})
	if err != nil {
		return nil, err
	}
	return CLEvent(done), nil
}

// AppendCL is Append from the caller's device buffer: count 32-byte leaves from the start of
// leaves, a buffer of the context of the tree's CLDevice (WithCLDevice), read on the device
// once the events of wait (the caller's writes of it, on any queue of the context) complete:
// nothing of it crosses the bus. It returns the new root and an event of the tree's queue that
// completes after wait and the call (by its return where count > 0), retained for the caller,
// who releases it (clReleaseEvent). The call is done with the buffer when it returns: merklize
// neither retains nor releases it, and the caller may write or free it then. count 0 reads no
// buffer (which may then be nil).
//
// Refused as ErrArgument, the tree as it was: a nil buffer where count > 0, a buffer of another
// context or smaller than count leaves, an append past what the tree may hold (as Append).
func (t *DeviceTree) AppendCL(leaves CLMem, count uint64, wait []CLEvent) ([32]byte, CLEvent, error) {
	return t.onBuffers("DeviceTree.AppendCL", wait, func(tree *C.merklize_device_tree, n C.uint32_t,
		events **C.struct__cl_event, done **C.struct__cl_event, root *C.uint8_t) C.merklize_status {
		return C.merklize_device_tree_append_cl(tree, (*C.struct__cl_mem)(leaves), C.uint64_t(count),
			n, events, done, root)
	})
}

// UpdateCL is Update from the caller's device buffers: count indices (uint64, little-endian as
// the device's) and count 32-byte leaves, as AppendCL takes its buffer. Within the batch a
// repeated index takes its last value. An index at or past the leaf count is found on the
// device, which then writes nothing: ErrArgument naming it, the tree as it was; so are the
// refusals of AppendCL, for both buffers.
func (t *DeviceTree) UpdateCL(indices, leaves CLMem, count uint64, wait []CLEvent) ([32]byte, CLEvent, error) {
	return t.onBuffers("DeviceTree.UpdateCL", wait, func(tree *C.merklize_device_tree, n C.uint32_t,
		events **C.struct__cl_event, done **C.struct__cl_event, root *C.uint8_t) C.merklize_status {
		return C.merklize_device_tree_update_cl(tree, (*C.struct__cl_mem)(indices),
			(*C.struct__cl_mem)(leaves), C.uint64_t(count), n, events, done, root)
	})
}

// onBuffers makes a call on the caller's buffers, given the tree, the wait list and where the
// done event and the root go; the root and the event are returned on success.
func (t *DeviceTree) onBuffers(what string, wait []CLEvent, f func(*C.merklize_device_tree, C.uint32_t,
	**C.struct__cl_event, **C.struct__cl_event, *C.uint8_t) C.merklize_status) (root [32]byte, done CLEvent, err error) {
	count, events, err := waitList(what, wait)
	if err != nil {
		return root, nil, err
	}
	var out [32]byte
	var event *C.struct__cl_event
	err = t.handle().with(func(tree *C.merklize_device_tree) error {
		return call(func() C.merklize_status {
			return f(tree, count, events, &event, (*C.uint8_t)(unsafe.Pointer(&out[0])))
		})
	})
	if err != nil {
		return root, nil, err
	}
	return out, CLEvent(event), nil
}

// waitList is the events to wait for as the C ABI takes them: their count and the first (nil
// for none). The slice holds C pointers only, so that cgo may pass it.
func waitList(what string, wait []CLEvent) (C.uint32_t, **C.struct__cl_event, error) {
	if len(wait) == 0 {
		return 0, nil, nil
	}
	if uint64(len(wait)) > math.MaxUint32 {
		return 0, nil, argumentError(fmt.Sprintf("%s: %d events to wait for", what, len(wait)))
	}
	return C.uint32_t(len(wait)), (**C.struct__cl_event)(unsafe.Pointer(&wait[0])), nil
}
