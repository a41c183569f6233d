// Packing raw video as it passes a pad: rows without the padding GStreamer's default layout adds (for
// odd widths), for code that wants tightly packed planes.
#include "CGStreamerShimVideo.h"

#include <string.h>

// A packed copy of `buffer` laid out as `info` says, or NULL when it is packed already (or unreadable).
static GstBuffer *packed_video_buffer(GstBuffer *buffer, GstVideoInfo *info) {
    guint planes = GST_VIDEO_INFO_N_PLANES(info);
    GstVideoMeta *meta = gst_buffer_get_video_meta(buffer);
    gsize offsets[GST_VIDEO_MAX_PLANES] = {0};
    gint strides[GST_VIDEO_MAX_PLANES] = {0};
    gsize size = 0;
    gboolean packed = TRUE;
    for (guint plane = 0; plane < planes; plane++) {
        strides[plane] = CGStreamerShim_video_info_plane_row_bytes(info, plane);
        offsets[plane] = size;
        size += (gsize)strides[plane] * CGStreamerShim_video_info_plane_height(info, plane);
        gsize offset = meta ? meta->offset[plane] : GST_VIDEO_INFO_PLANE_OFFSET(info, plane);
        gint stride = meta ? meta->stride[plane] : GST_VIDEO_INFO_PLANE_STRIDE(info, plane);
        packed = packed && offset == offsets[plane] && stride == strides[plane];
    }
    if (packed) {
        return NULL;
    }
    GstVideoFrame frame;
    if (!gst_video_frame_map(&frame, info, buffer, GST_MAP_READ)) {
        return NULL;
    }
    GstBuffer *result = gst_buffer_new_allocate(NULL, size, NULL);
    GstMapInfo map;
    if (result == NULL || !gst_buffer_map(result, &map, GST_MAP_WRITE)) {
        gst_video_frame_unmap(&frame);
        if (result != NULL) {
            gst_buffer_unref(result);
        }
        return NULL;
    }
    for (guint plane = 0; plane < planes; plane++) {
        const guint8 *source = GST_VIDEO_FRAME_PLANE_DATA(&frame, plane);
        gint sourceStride = GST_VIDEO_FRAME_PLANE_STRIDE(&frame, plane);
        gint rows = CGStreamerShim_video_info_plane_height(info, plane);
        for (gint row = 0; row < rows; row++) {
            memcpy(map.data + offsets[plane] + (gsize)row * strides[plane], source + (gsize)row * sourceStride,
                   strides[plane]);
        }
    }
    gst_buffer_unmap(result, &map);
    gst_video_frame_unmap(&frame);
    gst_buffer_copy_into(result, buffer, GST_BUFFER_COPY_FLAGS | GST_BUFFER_COPY_TIMESTAMPS, 0, -1);
    gst_buffer_add_video_meta_full(result, GST_VIDEO_FRAME_FLAG_NONE, GST_VIDEO_INFO_FORMAT(info),
                                   GST_VIDEO_INFO_WIDTH(info), GST_VIDEO_INFO_HEIGHT(info), planes, offsets, strides);
    return result;
}

static GstPadProbeReturn pack_video_buffer_probe(GstPad *pad, GstPadProbeInfo *probe, gpointer user_data) {
    (void)user_data;
    GstCaps *caps = gst_pad_get_current_caps(pad);
    if (caps == NULL) {
        return GST_PAD_PROBE_OK;
    }
    GstVideoInfo info;
    gboolean known = gst_video_info_from_caps(&info, caps);
    gst_caps_unref(caps);
    GstBuffer *buffer = GST_PAD_PROBE_INFO_BUFFER(probe);
    GstBuffer *packed = known && buffer != NULL ? packed_video_buffer(buffer, &info) : NULL;
    if (packed != NULL) {
        gst_buffer_unref(buffer);
        GST_PAD_PROBE_INFO_DATA(probe) = packed;
    }
    return GST_PAD_PROBE_OK;
}

// gst_pad_add_probe with the probe above. The probe and its copy are C because what they are made of
// is: the video macros (GST_VIDEO_INFO_*, GST_VIDEO_FRAME_PLANE_*) and the probe's data macros
// (GST_PAD_PROBE_INFO_BUFFER, GST_PAD_PROBE_INFO_DATA); in Swift each would be a call into the shim.
void CGStreamerShim_pad_pack_video_buffers(GstPad *pad) {
    gst_pad_add_probe(pad, GST_PAD_PROBE_TYPE_BUFFER, pack_video_buffer_probe, NULL, NULL);
}
