// Raw video: plane layouts of a GstVideoInfo and a mapped GstVideoFrame (video.c), and packing the
// buffers that pass a pad (pack_video.c).
#ifndef CGSTREAMER_SHIM_VIDEO_H
#define CGSTREAMER_SHIM_VIDEO_H

#include <gst/gst.h>
#include <gst/video/video.h>

/// Height in rows of plane `plane` (GST_VIDEO_INFO_COMP_HEIGHT of its first component).
gint CGStreamerShim_video_info_plane_height(const GstVideoInfo *info, guint plane);
/// Bytes of pixel data in one row of plane `plane`, without padding
/// (GST_VIDEO_INFO_COMP_WIDTH * GST_VIDEO_INFO_COMP_PSTRIDE of its first component).
gint CGStreamerShim_video_info_plane_row_bytes(const GstVideoInfo *info, guint plane);
/// `GST_VIDEO_INFO_IS_YUV`, `GST_VIDEO_INFO_IS_RGB`.
gboolean CGStreamerShim_video_info_is_yuv(const GstVideoInfo *info);
gboolean CGStreamerShim_video_info_is_rgb(const GstVideoInfo *info);
/// `GST_VIDEO_INFO_N_PLANES`.
guint CGStreamerShim_video_info_n_planes(const GstVideoInfo *info);
/// Plane data pointer and stride of a mapped frame (`GST_VIDEO_FRAME_PLANE_DATA`, `_STRIDE`).
void *CGStreamerShim_video_frame_plane_data(GstVideoFrame *frame, guint plane);
gint CGStreamerShim_video_frame_plane_stride(GstVideoFrame *frame, guint plane);
/// Whether `length` bytes from plane `plane`'s data pointer lie inside memory the frame has mapped (the
/// plane's own map, from a GstVideoMeta, or the whole buffer's). The frame must have been zeroed before
/// `gst_video_frame_map`, so maps it did not use read as empty.
gboolean CGStreamerShim_video_frame_plane_is_mapped(const GstVideoFrame *frame, guint plane, gsize length);
/// Rewrites every raw video buffer that passes `pad` into tightly packed planes (rows without the
/// padding GStreamer's default layout adds for odd widths), with a GstVideoMeta saying so. Buffers
/// already packed pass untouched.
void CGStreamerShim_pad_pack_video_buffers(GstPad *pad);

#endif
