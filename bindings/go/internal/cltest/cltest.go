// SPDX-License-Identifier: Apache-2.0 OR MIT

// Package cltest is the tests' own OpenCL, for the calls that take a caller's buffers: a context
// and a queue of the first device of the first platform, and buffers of it written and read
// back. Go test files cannot use cgo, so the few OpenCL calls they need are here.
package cltest

// #cgo pkg-config: OpenCL
// #define CL_TARGET_OPENCL_VERSION 120
// #include <CL/cl.h>
import "C"

import (
	"fmt"
	"unsafe"
)

// CL is a context and an in-order queue of one device.
type CL struct {
	Context, Device unsafe.Pointer // a cl_context and its cl_device_id
	queue           C.cl_command_queue
}

func check(code C.cl_int, what string) error {
	if code != C.CL_SUCCESS {
		return fmt.Errorf("cltest: %s failed: OpenCL error %d", what, int(code))
	}
	return nil
}

// Open makes a context and a queue of the first device of the first platform.
func Open() (*CL, error) {
	var platform C.cl_platform_id
	var device C.cl_device_id
	var count C.cl_uint
	if err := check(C.clGetPlatformIDs(1, &platform, &count), "clGetPlatformIDs"); err != nil {
		return nil, err
	}
	err := check(C.clGetDeviceIDs(platform, C.CL_DEVICE_TYPE_ALL, 1, &device, &count), "clGetDeviceIDs")
	if err != nil {
		return nil, err
	}
	var code C.cl_int
	context := C.clCreateContext(nil, 1, &device, nil, nil, &code)
	if err := check(code, "clCreateContext"); err != nil {
		return nil, err
	}
	queue := C.clCreateCommandQueue(context, device, 0, &code)
	if err := check(code, "clCreateCommandQueue"); err != nil {
		C.clReleaseContext(context)
		return nil, err
	}
	return &CL{Context: unsafe.Pointer(context), Device: unsafe.Pointer(device), queue: queue}, nil
}

// Close releases the queue and the context (merklize keeps its own reference to the context).
func (c *CL) Close() {
	C.clReleaseCommandQueue(c.queue)
	C.clReleaseContext(C.cl_context(c.Context))
}

// Buffer is a new buffer of size bytes, uninitialised; release it with Release.
func (c *CL) Buffer(size int) (unsafe.Pointer, error) {
	var code C.cl_int
	buffer := C.clCreateBuffer(C.cl_context(c.Context), C.CL_MEM_READ_WRITE, C.size_t(size), nil, &code)
	if err := check(code, "clCreateBuffer"); err != nil {
		return nil, err
	}
	return unsafe.Pointer(buffer), nil
}

// Write copies data into the start of buffer (a blocking write on the queue) and gives the
// write's event, complete by then, for a wait list; release it with ReleaseEvent.
func (c *CL) Write(buffer unsafe.Pointer, data []byte) (unsafe.Pointer, error) {
	var event C.cl_event
	code := C.clEnqueueWriteBuffer(c.queue, C.cl_mem(buffer), C.CL_TRUE, 0, C.size_t(len(data)),
		unsafe.Pointer(&data[0]), 0, nil, &event)
	if err := check(code, "clEnqueueWriteBuffer"); err != nil {
		return nil, err
	}
	return unsafe.Pointer(event), nil
}

// BufferOf is a new buffer holding a copy of data.
func (c *CL) BufferOf(data []byte) (unsafe.Pointer, error) {
	buffer, err := c.Buffer(len(data))
	if err != nil {
		return nil, err
	}
	event, err := c.Write(buffer, data)
	if err != nil {
		Release(buffer)
		return nil, err
	}
	ReleaseEvent(event)
	return buffer, nil
}

// Read copies the start of buffer into out once the event wait (nil for none) completes.
func (c *CL) Read(buffer unsafe.Pointer, out []byte, wait unsafe.Pointer) error {
	var count C.cl_uint
	var list *C.cl_event
	if wait != nil {
		count, list = 1, (*C.cl_event)(unsafe.Pointer(&wait))
	}
	code := C.clEnqueueReadBuffer(c.queue, C.cl_mem(buffer), C.CL_TRUE, 0, C.size_t(len(out)),
		unsafe.Pointer(&out[0]), count, list, nil)
	return check(code, "clEnqueueReadBuffer")
}

// EventComplete says whether event has completed.
func EventComplete(event unsafe.Pointer) (bool, error) {
	var status C.cl_int
	code := C.clGetEventInfo(C.cl_event(event), C.CL_EVENT_COMMAND_EXECUTION_STATUS,
		C.size_t(unsafe.Sizeof(status)), unsafe.Pointer(&status), nil)
	return status == C.CL_COMPLETE, check(code, "clGetEventInfo")
}

// Release releases a buffer.
func Release(buffer unsafe.Pointer) { C.clReleaseMemObject(C.cl_mem(buffer)) }

// ReleaseEvent releases an event, checking that it was one.
func ReleaseEvent(event unsafe.Pointer) error {
	return check(C.clReleaseEvent(C.cl_event(event)), "clReleaseEvent")
}
