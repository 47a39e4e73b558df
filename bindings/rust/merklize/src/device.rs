// SPDX-License-Identifier: Apache-2.0 OR MIT
//! Devices: the list of OpenCL devices, and an opened one.

use std::fmt;
use std::os::raw::c_char;
use std::ptr::NonNull;

use crate::error::{check, Result};
use crate::handle::{c_string, created};
use merklize_sys as sys;

/// Facts of an OpenCL device, as `merklize devices` lists them.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DeviceInfo {
    /// "P:D": the spec that selects exactly this device ([`Device::open`]); empty for a device
    /// of a caller's own context that is not in the list.
    pub spec: String,
    /// The device's name.
    pub name: String,
    /// The device's vendor.
    pub vendor: String,
    /// The platform's name.
    pub platform: String,
    /// "gpu", "cpu", "accelerator" or "other".
    pub device_type: String,
}

impl DeviceInfo {
    fn from_raw(raw: &sys::merklize_device_info) -> DeviceInfo {
        DeviceInfo {
            spec: text(&raw.spec),
            name: text(&raw.name),
            vendor: text(&raw.vendor),
            platform: text(&raw.platform),
            device_type: text(&raw.type_),
        }
    }
}

/// A fixed array's text, up to its NUL (or its end, should there be none).
fn text(field: &[c_char]) -> String {
    let bytes: Vec<u8> = field
        .iter()
        .take_while(|&&c| c != 0)
        .map(|&c| c as u8)
        .collect();
    String::from_utf8_lossy(&bytes).into_owned()
}

/// A zeroed `merklize_device_info` with its `size` set, for the library to fill.
fn blank_info() -> sys::merklize_device_info {
    sys::merklize_device_info {
        size: std::mem::size_of::<sys::merklize_device_info>() as u32,
        spec: [0; 32],
        name: [0; 256],
        vendor: [0; 256],
        platform: [0; 256],
        type_: [0; 16],
    }
}

/// The OpenCL devices of every platform, in the order `merklize devices` lists them; empty on a
/// machine with no OpenCL platform.
pub fn devices() -> Result<Vec<DeviceInfo>> {
    let mut count = 0usize;
    // SAFETY: count is a valid out-pointer.
    check(unsafe { sys::merklize_device_count(&mut count) })?;
    let mut list = Vec::with_capacity(count);
    for index in 0..count {
        let mut info = blank_info();
        // SAFETY: info is a merklize_device_info with its size set.
        check(unsafe { sys::merklize_device_get_info(index, &mut info) })?;
        list.push(DeviceInfo::from_raw(&info));
    }
    Ok(list)
}

/// An OpenCL device and its context, opened for building trees ([`crate::Builder`]) and hashing.
///
/// A device may be used from several threads at once (it is `Send` and `Sync`): libmerklize
/// serialises the calls on one device. Builders keep their device alive, so a `Device` may be
/// dropped before them.
pub struct Device {
    raw: NonNull<sys::merklize_device>,
}

// SAFETY: merklize.h: "A device, a builder and a log may be used from several threads: their
// calls are serialised"; the handle is not tied to the thread that made it.
unsafe impl Send for Device {}
unsafe impl Sync for Device {}

impl Device {
    /// Opens the device `spec` selects, as the command-line tool's `--device` takes it: "P:D",
    /// or a case-insensitive part of the platform's or the device's name or vendor, or "gpu" /
    /// "cpu". An empty spec: the default device (`$MERKLIZE_DEVICE` if set, else the first GPU,
    /// else the first device).
    pub fn open(spec: &str) -> Result<Device> {
        let spec = c_string("the device spec", spec)?;
            // SAFETY: spec is NUL-terminated; the out-pointer is valid.
        let raw = created(|out| unsafe { sys::merklize_device_open(spec.as_ptr(), out) })?;
        Ok(Device { raw })
    }

    /// The default device: `$MERKLIZE_DEVICE` if set, else the first GPU, else the first device.
    pub fn open_default() -> Result<Device> {
        Device::open("")
    }

    /// Facts of this device.
    pub fn info(&self) -> Result<DeviceInfo> {
        let mut info = blank_info();
        // SAFETY: a live handle, and info with its size set.
        check(unsafe { sys::merklize_device_describe(self.raw.as_ptr(), &mut info) })?;
        Ok(DeviceInfo::from_raw(&info))
    }

    /// The C handle, for calls of merklize-sys. It stays owned by this `Device`.
    pub fn as_ptr(&self) -> *mut sys::merklize_device {
        self.raw.as_ptr()
    }

    pub(crate) fn from_raw(raw: NonNull<sys::merklize_device>) -> Device {
        Device { raw }
    }
}

impl Drop for Device {
    fn drop(&mut self) {
        // SAFETY: the handle is owned by this value and freed once.
        unsafe { sys::merklize_device_free(self.raw.as_ptr()) }
    }
}

impl fmt::Debug for Device {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.info() {
            Ok(info) => f
                .debug_struct("Device")
                .field("spec", &info.spec)
                .field("name", &info.name)
                .field("platform", &info.platform)
                .finish(),
            Err(_) => f.debug_struct("Device").finish_non_exhaustive(),
        }
    }
}
