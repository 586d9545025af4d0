//! The drop-box's questions answered on Windows: the owner SID and the DACL (read as SDDL text,
//! which [`super::sddl`] judges), a directory made with a protected DACL that grants only the
//! current user (in the one `CreateDirectoryW` call, so it is never open for a moment), volume
//! serial and file index, `FILE_FLAG_OPEN_REPARSE_POINT`, and a reader's hold told apart from
//! other refusals.
//!
//! The Win32 security calls are `unsafe` FFI; each block says why it is sound. A descriptor the
//! system allocates is owned by a [`Descriptor`], which frees it when dropped; strings it returns
//! are copied into Rust strings and freed at once.
#![allow(unsafe_code)]

use std::ffi::OsStr;
use std::fs::{File, Metadata, OpenOptions};
use std::io;
use std::os::windows::ffi::OsStrExt;
use std::os::windows::fs::OpenOptionsExt;
use std::path::Path;

use windows_sys::Win32::Foundation::{
    CloseHandle, ERROR_ACCESS_DENIED, ERROR_LOCK_VIOLATION, ERROR_SHARING_VIOLATION, ERROR_SUCCESS,
    HANDLE, LocalFree,
};
use windows_sys::Win32::Security::Authorization::{
    ConvertSecurityDescriptorToStringSecurityDescriptorW, ConvertSidToStringSidW,
    ConvertStringSecurityDescriptorToSecurityDescriptorW, GetNamedSecurityInfoW, SDDL_REVISION_1,
    SE_FILE_OBJECT,
};
use windows_sys::Win32::Security::{
    DACL_SECURITY_INFORMATION, GetTokenInformation, OBJECT_SECURITY_INFORMATION,
    OWNER_SECURITY_INFORMATION, PSECURITY_DESCRIPTOR, PSID, SECURITY_ATTRIBUTES, TOKEN_OWNER,
    TOKEN_QUERY, TOKEN_USER, TokenOwner, TokenUser,
};
use windows_sys::Win32::Storage::FileSystem::{CreateDirectoryW, FILE_FLAG_OPEN_REPARSE_POINT};
use windows_sys::Win32::System::Threading::{GetCurrentProcess, OpenProcessToken};
use windows_sys::core::PWSTR;

use super::sddl::{Me, Security};
use winit_automation_protocol::DirError;

/// Which file a path named when it was looked at: its volume's serial number and its file index.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct FileId {
    volume: u64,
    index: u64,
}

impl FileId {
    /// The identity of what `path` names.
    pub(crate) fn of_path(path: &Path) -> io::Result<FileId> {
        let handle = winapi_util::Handle::from_path_any(path)?;
        winapi_util::file::information(&handle).map(|i| FileId::of(&i))
    }

    /// The identity of an open file.
    pub(crate) fn of_file(file: &File) -> io::Result<FileId> {
        winapi_util::file::information(winapi_util::HandleRef::from_file(file))
            .map(|i| FileId::of(&i))
    }

    fn of(info: &winapi_util::file::Information) -> FileId {
        FileId {
            volume: info.volume_serial_number(),
            index: info.file_index(),
        }
    }
}

/// Refuses a directory whose owner is neither the current user nor the owner its token gives new
/// files (an elevated administrator's files belong to Administrators), or whose DACL lets anyone
/// else write to it: no DACL at all, or an allow entry with a write right for another principal
/// than the user, SYSTEM and Administrators.
pub(crate) fn check_access(path: &Path, _meta: &Metadata) -> Result<(), DirError> {
    let io_err = |source| DirError::Io {
        path: path.to_owned(),
        op: "read the security of",
        source,
    };
    let me = me().map_err(io_err)?;
    let sddl = sddl_of(path).map_err(io_err)?;
    let security = Security::parse(&sddl);
    if !me.owns(security.owner()) {
        return Err(DirError::NotOwned {
            path: path.to_owned(),
            owner: security.owner().to_owned(),
            me: me.user.clone(),
        });
    }
    if let Some(by) = security.writers_besides(&me).first() {
        return Err(DirError::Writable {
            path: path.to_owned(),
            by: format!("{by} (an entry of its access control list)"),
        });
    }
    Ok(())
}

/// Creates the directory `path` (its parent exists) with a protected DACL that gives the current
/// user full control, inherited by what is made in it, and nobody else anything: the counterpart
/// of `mkdir` with mode 0700, and as atomic (the DACL is the one `CreateDirectoryW` is given).
/// Protected, it takes no entries from its parent.
pub(crate) fn create_private_dir(path: &Path) -> io::Result<()> {
    let me = me()?;
    let descriptor = Descriptor::from_sddl(&format!("D:P(A;OICI;FA;;;{})", me.user))?;
    let attributes = SECURITY_ATTRIBUTES {
        nLength: size_of::<SECURITY_ATTRIBUTES>() as u32,
        lpSecurityDescriptor: descriptor.0,
        bInheritHandle: 0,
    };
    let name = wide(path.as_os_str());
    // SAFETY: `name` is a NUL-terminated path and `attributes` points to a valid descriptor
    // (`descriptor` lives until the end of this function); both outlive the call.
    if unsafe { CreateDirectoryW(name.as_ptr(), &attributes) } == 0 {
        return Err(io::Error::last_os_error());
    }
    Ok(())
}

/// New files take the directory's protected DACL: nothing to add.
pub(crate) fn private_file(options: &mut OpenOptions) -> &mut OpenOptions {
    options
}

/// Opens an entry as it is: a symlink or junction planted in its place is opened itself
/// (`FILE_FLAG_OPEN_REPARSE_POINT`), and its metadata then says it is no regular file. Windows has
/// no FIFOs in a directory, so nothing can block the open.
pub(crate) fn no_follow(options: &mut OpenOptions) -> &mut OpenOptions {
    options.custom_flags(FILE_FLAG_OPEN_REPARSE_POINT)
}

/// An open with [`no_follow`] never fails for a link: the link itself opens.
pub(crate) fn is_link(_: &io::Error) -> bool {
    false
}

/// A rename, removal or exclusive create refused because another process holds the file: open
/// without sharing its deletion (a sharing violation, or access denied, which is what a rename
/// over such a file and a create of a name whose removal is pending answer), or locked.
pub(crate) fn is_busy(e: &io::Error) -> bool {
    let busy = [
        ERROR_SHARING_VIOLATION,
        ERROR_LOCK_VIOLATION,
        ERROR_ACCESS_DENIED,
    ];
    e.raw_os_error()
        .is_some_and(|code| busy.iter().any(|&b| b as i32 == code))
}

fn wide(s: &OsStr) -> Vec<u16> {
    s.encode_wide().chain([0]).collect()
}

/// Copies a NUL-terminated UTF-16 string the system allocated with `LocalAlloc`, and frees it.
///
/// # Safety
/// `p` is null or a NUL-terminated UTF-16 string allocated with `LocalAlloc`, owned by the caller
/// and used by nobody after this call.
unsafe fn take_local_string(p: PWSTR) -> String {
    if p.is_null() {
        return String::new();
    }
    let mut len = 0;
    // SAFETY: the string is NUL-terminated (the caller's contract), so every index read up to and
    // including the NUL lies inside it.
    while unsafe { *p.add(len) } != 0 {
        len += 1;
    }
    // SAFETY: `p` points to `len` initialised u16s (counted above), valid until freed below.
    let text = String::from_utf16_lossy(unsafe { std::slice::from_raw_parts(p, len) });
    // SAFETY: `p` was allocated with LocalAlloc and nobody uses it after this (the contract).
    unsafe { LocalFree(p.cast()) };
    text
}

/// A security descriptor the system allocated (`LocalAlloc`), freed when dropped.
struct Descriptor(PSECURITY_DESCRIPTOR);

impl Drop for Descriptor {
    fn drop(&mut self) {
        // SAFETY: the pointer came from the system's LocalAlloc (every constructor below) and is
        // owned by this value alone, so it is freed once, after its last use.
        unsafe { LocalFree(self.0.cast()) };
    }
}

impl Descriptor {
    /// The descriptor SDDL text describes.
    fn from_sddl(text: &str) -> io::Result<Descriptor> {
        let text = wide(OsStr::new(text));
        let mut descriptor: PSECURITY_DESCRIPTOR = std::ptr::null_mut();
        // SAFETY: `text` is a NUL-terminated UTF-16 string that outlives the call; `descriptor`
        // receives a LocalAlloc'd buffer, owned by the returned value; the size may be null.
        let ok = unsafe {
            ConvertStringSecurityDescriptorToSecurityDescriptorW(
                text.as_ptr(),
                SDDL_REVISION_1,
                &mut descriptor,
                std::ptr::null_mut(),
            )
        };
        if ok == 0 {
            return Err(io::Error::last_os_error());
        }
        Ok(Descriptor(descriptor))
    }

    /// The descriptor of the file or directory `path`: its owner and DACL.
    fn of_path(path: &Path) -> io::Result<Descriptor> {
        let name = wide(path.as_os_str());
        let mut descriptor: PSECURITY_DESCRIPTOR = std::ptr::null_mut();
        // SAFETY: `name` is a NUL-terminated UTF-16 path that outlives the call; the owner,
        // group, DACL and SACL out-pointers may be null (the descriptor holds them); `descriptor`
        // receives a LocalAlloc'd buffer, owned by the returned value.
        let status = unsafe {
            GetNamedSecurityInfoW(
                name.as_ptr(),
                SE_FILE_OBJECT,
                OWNER_SECURITY_INFORMATION | DACL_SECURITY_INFORMATION,
                std::ptr::null_mut(),
                std::ptr::null_mut(),
                std::ptr::null_mut(),
                std::ptr::null_mut(),
                &mut descriptor,
            )
        };
        if status != ERROR_SUCCESS {
            return Err(io::Error::from_raw_os_error(status as i32));
        }
        Ok(Descriptor(descriptor))
    }

    /// The parts `info` names, as SDDL text.
    fn to_sddl(&self, info: OBJECT_SECURITY_INFORMATION) -> io::Result<String> {
        let mut text: PWSTR = std::ptr::null_mut();
        // SAFETY: `self.0` is a valid descriptor (a constructor's); `text` receives a LocalAlloc'd
        // NUL-terminated string; the length out-pointer may be null.
        let ok = unsafe {
            ConvertSecurityDescriptorToStringSecurityDescriptorW(
                self.0,
                SDDL_REVISION_1,
                info,
                &mut text,
                std::ptr::null_mut(),
            )
        };
        if ok == 0 {
            return Err(io::Error::last_os_error());
        }
        // SAFETY: on success `text` is a LocalAlloc'd NUL-terminated string that we own.
        Ok(unsafe { take_local_string(text) })
    }
}

/// The owner and DACL of `path`, as SDDL text (`O:<sid>D:<flags>(<ace>)...`).
fn sddl_of(path: &Path) -> io::Result<String> {
    Descriptor::of_path(path)?.to_sddl(OWNER_SECURITY_INFORMATION | DACL_SECURITY_INFORMATION)
}

/// How SDDL text writes `sid`: the SID itself, or an alias Windows has for it (`LA`).
fn printed(sid: &str) -> io::Result<String> {
    let text = Descriptor::from_sddl(&format!("O:{sid}"))?.to_sddl(OWNER_SECURITY_INFORMATION)?;
    Ok(text.strip_prefix("O:").unwrap_or(&text).to_owned())
}

/// The current user's SID and the owner SID its token gives new objects, as strings, and how SDDL
/// prints them.
fn me() -> io::Result<Me> {
    let mut token: HANDLE = std::ptr::null_mut();
    // SAFETY: GetCurrentProcess returns a pseudo-handle that needs no closing; `token` receives a
    // handle closed below.
    if unsafe { OpenProcessToken(GetCurrentProcess(), TOKEN_QUERY, &mut token) } == 0 {
        return Err(io::Error::last_os_error());
    }
    let user = token_sid(token, TokenUser);
    let owner = token_sid(token, TokenOwner);
    // SAFETY: `token` is the handle opened above, not used after this.
    unsafe { CloseHandle(token) };
    let (user, owner) = (user?, owner?);
    let printed = [printed(&user)?, printed(&owner)?].into();
    Ok(Me {
        user,
        owner,
        printed,
    })
}

/// The SID a token's `TokenUser` or `TokenOwner` information holds, as a string.
fn token_sid(
    token: HANDLE,
    class: windows_sys::Win32::Security::TOKEN_INFORMATION_CLASS,
) -> io::Result<String> {
    // u64s: the buffer is aligned for the structure and the SID that follow in it.
    let mut buffer = vec![0u64; 64];
    let mut needed = 0u32;
    loop {
        let size = (buffer.len() * 8) as u32;
        // SAFETY: `buffer` is writable for `size` bytes; `needed` is a local.
        let ok = unsafe {
            GetTokenInformation(token, class, buffer.as_mut_ptr().cast(), size, &mut needed)
        };
        if ok != 0 {
            break;
        }
        if needed <= size {
            return Err(io::Error::last_os_error());
        }
        buffer.resize(needed.div_ceil(8) as usize, 0);
    }
    let sid: PSID = if class == TokenUser {
        // SAFETY: on success the buffer starts with a TOKEN_USER (aligned: a u64 buffer).
        unsafe { (*buffer.as_ptr().cast::<TOKEN_USER>()).User.Sid }
    } else {
        // SAFETY: on success the buffer starts with a TOKEN_OWNER (aligned: a u64 buffer).
        unsafe { (*buffer.as_ptr().cast::<TOKEN_OWNER>()).Owner }
    };
    let mut text: PWSTR = std::ptr::null_mut();
    // SAFETY: `sid` points into `buffer`, which outlives the call; `text` receives a LocalAlloc'd
    // NUL-terminated string.
    if unsafe { ConvertSidToStringSidW(sid, &mut text) } == 0 {
        return Err(io::Error::last_os_error());
    }
    // SAFETY: on success `text` is a LocalAlloc'd NUL-terminated string that we own.
    Ok(unsafe { take_local_string(text) })
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::fs;

    /// What Windows does is checked as far as Wine does it: Wine answers a file's security from
    /// its Unix mode and ignores the DACL a file is made or set with, so the protected DACL itself
    /// is not seen here (it is unverified: no real Windows runs these tests); that the check
    /// refuses a folder anyone else may write to is driven end to end (scripts/windows/drive.sh,
    /// on a folder of mode 777, which Wine reads as Everyone: full control).
    #[test]
    fn a_directory_made_private_passes_the_check_and_names_only_trusted_writers() {
        let tmp = tempfile::tempdir().unwrap();
        let dir = tmp.path().join("box");
        create_private_dir(&dir).unwrap();
        check_access(&dir, &fs::metadata(&dir).unwrap()).unwrap();
        let text = sddl_of(&dir).unwrap();
        let me = me().unwrap();
        assert!(me.owns(Security::parse(&text).owner()), "{text}");
        assert!(
            Security::parse(&text).writers_besides(&me).is_empty(),
            "{text}"
        );
    }

    #[test]
    fn a_descriptor_reads_back_as_the_text_it_was_made_from_and_the_user_prints_as_itself() {
        let me = me().unwrap();
        let text = format!("D:P(A;OICI;FA;;;{})", me.user);
        let back = Descriptor::from_sddl(&text)
            .unwrap()
            .to_sddl(DACL_SECURITY_INFORMATION)
            .unwrap();
        assert_eq!(
            Security::parse(&back).writers_besides(&me),
            Vec::<String>::new()
        );
        assert!(back.starts_with("D:P"), "{back}");
        assert!(me.printed.iter().all(|p| !p.is_empty()), "{me:?}");
        assert!(me.owns(&printed(&me.user).unwrap()));
    }

    #[test]
    fn a_rename_over_a_file_a_reader_holds_unshared_waits_for_the_reader() {
        let tmp = tempfile::tempdir().unwrap();
        let (old, new) = (tmp.path().join("snapshot.txt"), tmp.path().join("next"));
        fs::write(&old, "old").unwrap();
        fs::write(&new, "new").unwrap();
        // A reader that shares reading only: no rename or removal of the file while it holds it.
        let held = std::os::windows::fs::OpenOptionsExt::share_mode(
            OpenOptions::new().read(true),
            windows_sys::Win32::Storage::FileSystem::FILE_SHARE_READ,
        )
        .open(&old)
        .unwrap();
        let refused = fs::rename(&new, &old).unwrap_err();
        assert!(is_busy(&refused), "{refused:?}");
        let reader = std::thread::spawn(move || {
            std::thread::sleep(std::time::Duration::from_millis(100));
            drop(held);
        });
        super::super::retry(|| fs::rename(&new, &old)).unwrap();
        reader.join().unwrap();
        assert_eq!(fs::read_to_string(&old).unwrap(), "new");
    }
}
