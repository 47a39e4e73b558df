// SPDX-License-Identifier: Apache-2.0 OR MIT

package merklize

// #include <merklize.h>
// #include <stdlib.h>
import "C"

import (
	"sync"
	"unsafe"
)

// DeviceInfo describes an OpenCL device, as `merklize devices` lists it.
type DeviceInfo struct {
	Spec     string // "P:D", the spec of WithDevice that selects exactly this device
	Name     string
	Vendor   string
	Platform string // the platform's name
	Type     string // "gpu", "cpu", "accelerator" or "other"
}

// Devices lists the OpenCL devices of every platform; none (and no error) on a machine without
// OpenCL.
func Devices() ([]DeviceInfo, error) {
	var count C.size_t
	if err := call(func() C.merklize_status { return C.merklize_device_count(&count) }); err != nil {
		return nil, err
	}
	devices := make([]DeviceInfo, 0, int(count))
	for i := C.size_t(0); i < count; i++ {
		var info C.merklize_device_info
		info.size = C.uint32_t(unsafe.Sizeof(info))
		err := call(func() C.merklize_status { return C.merklize_device_get_info(i, &info) })
		if err != nil {
			return nil, err
		}
		devices = append(devices, deviceInfoOf(&info))
	}
	return devices, nil
}

func deviceInfoOf(info *C.merklize_device_info) DeviceInfo {
	return DeviceInfo{
		Spec:     C.GoString(&info.spec[0]),
		Name:     C.GoString(&info.name[0]),
		Vendor:   C.GoString(&info.vendor[0]),
		Platform: C.GoString(&info.platform[0]),
		Type:     C.GoString(&info._type[0]),
	}
}

// The devices opened, by spec: each is opened once, on first use, and kept while the process
// runs (a device is its OpenCL context; builders and hashes share it, and the library
// serialises their calls on it).
var devices struct {
	sync.Mutex
	bySpec map[string]*C.merklize_device
}

func deviceFor(spec string) (*C.merklize_device, error) {
	devices.Lock()
	defer devices.Unlock()
	if device, ok := devices.bySpec[spec]; ok {
		return device, nil
	}
	var cSpec *C.char
	if spec != "" {
		cSpec = C.CString(spec)
		defer C.free(unsafe.Pointer(cSpec))
	}
	var device *C.merklize_device
	if err := call(func() C.merklize_status { return C.merklize_device_open(cSpec, &device) }); err != nil {
		return nil, err
	}
	if devices.bySpec == nil {
		devices.bySpec = map[string]*C.merklize_device{}
	}
	devices.bySpec[spec] = device
	return device, nil
}

// Device describes the device that spec selects ("" for the default), as WithDevice takes it.
func Device(spec string) (DeviceInfo, error) {
	device, err := deviceFor(spec)
	if err != nil {
		return DeviceInfo{}, err
	}
	return describe(device)
}

func describe(device *C.merklize_device) (DeviceInfo, error) {
	var info C.merklize_device_info
	info.size = C.uint32_t(unsafe.Sizeof(info))
	if err := call(func() C.merklize_status { return C.merklize_device_describe(device, &info) }); err != nil {
		return DeviceInfo{}, err
	}
	return deviceInfoOf(&info), nil
}

// withDevice calls f with the device of the settings: WithCLDevice's, held for the call, else
// the one WithDevice's spec selects.
func (s *settings) withDevice(f func(*C.merklize_device) error) error {
	if s.clDevice != nil {
		return s.clDevice.handle().with(f)
	}
	device, err := deviceFor(s.device)
	if err != nil {
		return err
	}
	return f(device)
}
