// Headers Swift cannot see through Glibc (epoll, eventfd, accept4), behind tiny wrappers.
#ifndef CLOOPBACKSHIM_H
#define CLOOPBACKSHIM_H

#ifdef __linux__
#include <sys/epoll.h>
#include <sys/eventfd.h>
#include <sys/socket.h>

static inline int cls_epoll_create(void) { return epoll_create1(EPOLL_CLOEXEC); }
static inline int cls_eventfd(void) { return eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK); }
static inline unsigned int cls_epollin(void) { return EPOLLIN; }
static inline unsigned int cls_epollout(void) { return EPOLLOUT; }
static inline unsigned int cls_epollerr(void) { return EPOLLERR; }
static inline unsigned int cls_epollhup(void) { return EPOLLHUP; }
static inline unsigned int cls_epollrdhup(void) { return EPOLLRDHUP; }
static inline unsigned int cls_epollet(void) { return EPOLLET; }

/// epoll_ctl with the fd itself as the event's user data. `op`: 1 add, 2 delete, 3 modify.
static inline int cls_epoll_ctl(int epfd, int op, int fd, unsigned int events) {
    struct epoll_event event;
    event.events = events;
    event.data.u64 = 0;
    event.data.fd = fd;
    return epoll_ctl(epfd, op, fd, &event);
}

/// epoll_wait into two plain arrays (fds, event masks), so Swift never touches the
/// packed `struct epoll_event`. At most 256 events per call.
static inline int cls_epoll_wait(int epfd, int *fds, unsigned int *masks, int capacity, int timeout) {
    struct epoll_event events[256];
    if (capacity > 256) capacity = 256;
    if (capacity < 1) capacity = 1;
    int count = epoll_wait(epfd, events, capacity, timeout);
    for (int i = 0; i < count; i++) {
        fds[i] = events[i].data.fd;
        masks[i] = events[i].events;
    }
    return count;
}

/// Glibc hides accept4 behind _GNU_SOURCE; declare it ourselves.
extern int accept4(int fd, struct sockaddr *addr, socklen_t *addrlen, int flags);

/// accept4 with SOCK_NONBLOCK | SOCK_CLOEXEC: one syscall per accepted connection.
static inline int cls_accept_nonblocking(int fd) {
    return accept4(fd, 0, 0, SOCK_NONBLOCK | SOCK_CLOEXEC);
}

/// Glibc hides pthread_setname_np behind _GNU_SOURCE too. Names the calling thread
/// (at most 15 bytes are kept).
#include <pthread.h>
extern int pthread_setname_np(pthread_t thread, const char *name);
static inline int cls_set_thread_name(const char *name) { return pthread_setname_np(pthread_self(), name); }

/// Glibc hides unshare and CLONE_FILES behind _GNU_SOURCE. Gives the calling thread its own
/// copy of the process's file descriptor table (unshare(2)); fails harmlessly (EPERM) where a
/// seccomp profile forbids it.
extern int unshare(int flags);
static inline int cls_unshare_file_table(void) { return unshare(0x00000400 /* CLONE_FILES */); }

/// statfs(2)'s `f_type` for the file system holding `path` (its magic number), or 0 when it
/// cannot be told. Glibc's `<sys/vfs.h>` is not part of the module Swift sees.
#include <sys/vfs.h>
static inline long cls_filesystem_type(const char *path) {
    struct statfs info;
    return statfs(path, &info) == 0 ? (long)info.f_type : 0;
}
#endif

/// Returns freed heap pages to the kernel after a large release: glibc keeps them
/// otherwise, so a process's RSS stays at its peak after an attack. Nothing elsewhere.
#include <stdlib.h>
#if defined(__GLIBC__)
#include <malloc.h>
static inline void cls_release_free_memory(void) { malloc_trim(0); }
#else
static inline void cls_release_free_memory(void) {}
#endif

#endif
