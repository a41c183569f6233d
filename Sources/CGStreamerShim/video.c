// Raw video: plane layouts of a GstVideoInfo and a mapped GstVideoFrame. GStreamer spells them as
// macros over the format info's component tables and the frame's fixed-size C arrays (which Swift
// imports as tuples, indexable only through pointer casts).
#include "CGStreamerShimVideo.h"
#include <stdint.h>

static gint first_component_of_plane(const GstVideoInfo *info, guint plane) {
    for (guint comp = 0; comp < GST_VIDEO_INFO_N_COMPONENTS(info); comp++) {
        if (GST_VIDEO_INFO_COMP_PLANE(info, comp) == plane) {
            return comp;
        }
    }
    return -1;
}

// GST_VIDEO_INFO_COMP_HEIGHT of the plane's first component (macros).
gint CGStreamerShim_video_info_plane_height(const GstVideoInfo *info, guint plane) {
    gint comp = first_component_of_plane(info, plane);
    return comp < 0 ? 0 : GST_VIDEO_INFO_COMP_HEIGHT(info, comp);
}

// GST_VIDEO_INFO_COMP_WIDTH times GST_VIDEO_INFO_COMP_PSTRIDE of the plane's first component (macros).
gint CGStreamerShim_video_info_plane_row_bytes(const GstVideoInfo *info, guint plane) {
    gint comp = first_component_of_plane(info, plane);
    if (comp < 0) {
        return 0;
    }
    return GST_VIDEO_INFO_COMP_WIDTH(info, comp) * GST_VIDEO_INFO_COMP_PSTRIDE(info, comp);
}

// GST_VIDEO_INFO_IS_YUV, GST_VIDEO_INFO_IS_RGB and GST_VIDEO_INFO_N_PLANES, macros.
gboolean CGStreamerShim_video_info_is_yuv(const GstVideoInfo *info) { return GST_VIDEO_INFO_IS_YUV(info); }
gboolean CGStreamerShim_video_info_is_rgb(const GstVideoInfo *info) { return GST_VIDEO_INFO_IS_RGB(info); }
guint CGStreamerShim_video_info_n_planes(const GstVideoInfo *info) { return GST_VIDEO_INFO_N_PLANES(info); }

// GST_VIDEO_FRAME_PLANE_DATA, a macro over the frame's array of plane pointers.
void *CGStreamerShim_video_frame_plane_data(GstVideoFrame *frame, guint plane) {
    return GST_VIDEO_FRAME_PLANE_DATA(frame, plane);
}

// GST_VIDEO_FRAME_PLANE_STRIDE, a macro over the frame info's array of strides.
gint CGStreamerShim_video_frame_plane_stride(GstVideoFrame *frame, guint plane) {
    return GST_VIDEO_FRAME_PLANE_STRIDE(frame, plane);
}

// gst_video_frame_map trusts the strides and offsets it is given (a GstVideoMeta's, or the info's, of
// which it checks only the total size): a plane described past the memory would hand out a pointer past
// it. Addresses are compared as integers, since the plane may point anywhere.
gboolean CGStreamerShim_video_frame_plane_is_mapped(const GstVideoFrame *frame, guint plane, gsize length) {
    if (plane >= GST_VIDEO_MAX_PLANES) {
        return FALSE;
    }
    uintptr_t start = (uintptr_t)frame->data[plane];
    guint candidates[2] = {plane, 0};
    for (guint i = 0; i < 2; i++) {
        const GstMapInfo *map = &frame->map[candidates[i]];
        if (map->data == NULL) {
            continue;
        }
        uintptr_t begin = (uintptr_t)map->data;
        if (start >= begin && start - begin <= map->size && length <= map->size - (start - begin)) {
            return TRUE;
        }
    }
    return FALSE;
}
