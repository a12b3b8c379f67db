import CSystem

#if canImport(Glibc)
    import Glibc
#endif

/// What a replaced file keeps: its mode, owner, group and extended
/// attributes (as `gifsicle -b` and `cp -p --preserve=xattr` keep them).
/// Each is copied as far as this process may: a change of owner needs
/// root, and is left out without a word otherwise (the mode is then the
/// old one less the set-id bits).
package enum FileAttributes {
    /// Gives the open file `fd` the attributes of the file at `path`;
    /// nothing when there is no file there.
    package static func copy(from path: String, to fd: Int32) {
        var st = stat()
        guard stat(path, &st) == 0, st.st_mode & S_IFMT == S_IFREG else { return }
        if fchown(fd, st.st_uid, st.st_gid) != 0 {
            _ = fchown(fd, UInt32.max, st.st_gid)  // the group alone, when it is one of ours
        }
        fchmod(fd, st.st_mode & 0o7777)
        // The extended attributes, one by one.
        let size = anim_listxattr(path, nil, 0)
        guard size > 0 else { return }
        var names = [CChar](repeating: 0, count: size)
        let listed = anim_listxattr(path, &names, size)
        guard listed > 0 else { return }
        var start = 0
        while start < listed {
            let name = names.withUnsafeBufferPointer { String(cString: $0.baseAddress! + start) }
            start += name.utf8.count + 1
            let length = anim_getxattr(path, name, nil, 0)
            guard length >= 0 else { continue }
            var value = [UInt8](repeating: 0, count: max(length, 1))
            let read = anim_getxattr(path, name, &value, length)
            guard read >= 0 else { continue }
            _ = anim_fsetxattr(fd, name, value, read)
        }
    }
}
