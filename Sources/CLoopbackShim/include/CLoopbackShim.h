// Headers Swift cannot see through Glibc (epoll, eventfd), behind tiny wrappers.
#ifndef CLOOPBACKSHIM_H
#define CLOOPBACKSHIM_H

#ifdef __linux__
#include <sys/epoll.h>
#include <sys/eventfd.h>

static inline int cls_epoll_create(void) { return epoll_create1(EPOLL_CLOEXEC); }
static inline int cls_eventfd(void) { return eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK); }
static inline unsigned int cls_epollin(void) { return EPOLLIN; }
static inline unsigned int cls_epollout(void) { return EPOLLOUT; }
static inline unsigned int cls_epollerr(void) { return EPOLLERR; }
static inline unsigned int cls_epollhup(void) { return EPOLLHUP; }
static inline unsigned int cls_epollrdhup(void) { return EPOLLRDHUP; }
static inline unsigned int cls_epollet(void) { return EPOLLET; }
#endif

#endif
