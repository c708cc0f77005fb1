package openai

import (
	"strings"
)

// imageToken is the placeholder LLaMA-Factory (and the multimodal chat
// templates after it) writes in a message's text where the record's next
// image goes: the k-th token of the conversation is images[k].
const imageToken = "<image>"

// recordImages reads a record's own list of images (LLaMA-Factory's
// "images": paths or URLs, or {"path"}/{"url"} objects).
func recordImages(raw map[string]any) []string {
	list, _ := raw["images"].([]any)
	var out []string
	for _, v := range list {
		switch t := v.(type) {
		case string:
			out = append(out, t)
		case map[string]any:
			s, _ := t["url"].(string)
			if s == "" {
				s, _ = t["path"].(string)
			}
			out = append(out, s) // "" is noted where it is placed
		default:
			out = append(out, "")
		}
	}
	return out
}

// imagePart reads a content part that is an image, in the shapes the
// formats write: OpenAI {"type": "image_url", "image_url": {"url", "detail"}},
// LLaMA-Factory {"type": "image_url", "value": PATH}, Responses
// {"type": "input_image", "image_url": URL}, Anthropic {"type": "image",
// "source": {"type": "base64"|"url", …}}, Hugging Face processors
// {"type": "image", "url"|"image"|"path"}, Gemini inlineData / fileData.
// isImage is true for an image part; url is "" when it holds none OpenAI
// can take (why says what it lacks).
func imagePart(p any) (img ImageURL, isImage bool, why string) {
	o, _ := p.(map[string]any)
	if o == nil {
		return img, false, ""
	}
	str := func(m map[string]any, keys ...string) string {
		for _, k := range keys {
			if s, ok := m[k].(string); ok && s != "" {
				return s
			}
		}
		return ""
	}
	switch t, _ := o["type"].(string); t {
	case "image_url":
		if iu, ok := o["image_url"].(map[string]any); ok {
			img.URL, img.Detail = str(iu, "url"), str(iu, "detail")
		} else {
			img.URL = str(o, "image_url", "value", "url")
		}
	case "input_image":
		img.URL, img.Detail = str(o, "image_url"), str(o, "detail")
		if img.URL == "" && str(o, "file_id") != "" {
			return img, true, "it names an uploaded file (file_id), which a fine-tuning example cannot"
		}
	case "image":
		if src, ok := o["source"].(map[string]any); ok {
			switch str(src, "type") {
			case "base64":
				mt, data := str(src, "media_type"), str(src, "data")
				if mt == "" || data == "" {
					return img, true, "its base64 source has no media_type or data"
				}
				img.URL = "data:" + mt + ";base64," + data
			case "url":
				img.URL = str(src, "url")
			default:
				return img, true, "its source is of type " + str(src, "type")
			}
		} else {
			img.URL = str(o, "url", "image", "path")
		}
	case "":
		for _, k := range []string{"inlineData", "inline_data"} {
			if d, ok := o[k].(map[string]any); ok {
				mt := str(d, "mimeType", "mime_type")
				if !strings.HasPrefix(mt, "image/") {
					return img, false, ""
				}
				img.URL = "data:" + mt + ";base64," + str(d, "data")
				return img, true, ""
			}
		}
		for _, k := range []string{"fileData", "file_data"} {
			if d, ok := o[k].(map[string]any); ok {
				if !strings.HasPrefix(str(d, "mimeType", "mime_type"), "image/") {
					return img, false, ""
				}
				img.URL = str(d, "fileUri", "file_uri")
				return img, true, ""
			}
		}
		return img, false, ""
	default:
		return img, false, ""
	}
	if img.URL == "" {
		return img, true, "it holds no URL, data or path"
	}
	return img, true, ""
}

// userParts returns the content of a user message that holds images, as
// text and image_url parts in the order the message has them; nil when it
// holds none (its text is then written as a string).
func (c *converter) userParts(line, i int, raw any, text string) []Part {
	list := contentParts(raw)
	has := c.nextImage < len(c.images) && strings.Contains(text, imageToken)
	for _, p := range list {
		if _, ok, _ := imagePart(p); ok {
			has = true
		}
	}
	if !has {
		return nil
	}
	var parts []Part
	if list == nil {
		parts = c.tokenParts(line, i, text)
	}
	for k, p := range list {
		if img, ok, why := imagePart(p); ok {
			if why != "" {
				c.note(line, "part %d of message %d is an image, but %s: left out", k, i, why)
				continue
			}
			parts = append(parts, c.image(line, i, img))
			continue
		}
		if s, ok := textOf(p); ok {
			parts = append(parts, c.tokenParts(line, i, s)...)
		}
	}
	for _, p := range parts {
		if p.ImageURL != nil {
			return parts
		}
	}
	return nil // no image could be written: the text as a string
}

// textOf reads a text part: a string, or a part of a text type (or none)
// with text or value.
func textOf(p any) (string, bool) {
	if s, ok := p.(string); ok {
		return s, true
	}
	o, _ := p.(map[string]any)
	t, _ := o["type"].(string)
	if t != "" && !strings.HasSuffix(t, "text") {
		return "", false
	}
	for _, k := range []string{"text", "value"} {
		if s, ok := o[k].(string); ok {
			return s, true
		}
	}
	return "", false
}

// tokenParts splits text at its <image> tokens, each replaced by the
// record's next image.
func (c *converter) tokenParts(line, i int, text string) []Part {
	var parts []Part
	addText := func(s string) {
		if strings.TrimSpace(s) != "" {
			parts = append(parts, Part{Type: "text", Text: &s})
		}
	}
	segs := strings.Split(text, imageToken)
	for k, s := range segs {
		if k > 0 {
			if c.nextImage < len(c.images) {
				url := c.images[c.nextImage]
				c.nextImage++
				if url == "" {
					c.note(line, "image %d of the record (for an <image> token of message %d) names no path or URL: left out", c.nextImage-1, i)
				} else {
					parts = append(parts, c.image(line, i, ImageURL{URL: url}))
				}
			} else {
				c.note(line, "message %d has more <image> tokens than the record has images: the token is written as text", i)
				s = imageToken + s
			}
		}
		addText(s)
	}
	return parts
}

// image makes an image part, noting a local path: OpenAI takes an image by
// https or data: URL only, and convert does not upload or embed files.
func (c *converter) image(line, i int, img ImageURL) Part {
	u := img.URL
	if !strings.HasPrefix(u, "https://") && !strings.HasPrefix(u, "http://") && !strings.HasPrefix(u, "data:") {
		c.note(line, "image %q of message %d is a local path; OpenAI takes an https or data: URL: written as given (upload the image, or embed it as a data: URL, before training)", u, i)
	}
	return Part{Type: "image_url", ImageURL: &img}
}

// noImageTokens takes the <image> tokens out of a message that is not a
// user message, with their images: OpenAI's examples hold images in user
// messages only.
func (c *converter) noImageTokens(line, i int, role, text string) string {
	n := strings.Count(text, imageToken)
	if n == 0 || c.nextImage >= len(c.images) {
		return text
	}
	n = min(n, len(c.images)-c.nextImage)
	c.nextImage += n
	c.note(line, "message %d (%s) holds %d <image> token(s); OpenAI examples hold images in user messages only: the tokens and their images left out", i, role, n)
	return strings.TrimSpace(strings.Replace(text, imageToken, "", n))
}

// leftoverImages puts the record's images that no <image> token placed in
// front of the text of the first user message (a record that lists images
// without tokens, as LLaMA-Factory's older mllm_demo.json does: its
// templates then put the images first), with a note.
func (c *converter) leftoverImages(out []Message) {
	if c.nextImage >= len(c.images) {
		return
	}
	rest := c.images[c.nextImage:]
	c.nextImage = len(c.images)
	for k := range out {
		if out[k].Role != "user" {
			continue
		}
		m := &out[k]
		var parts []Part
		for _, u := range rest {
			if u != "" {
				parts = append(parts, c.image(c.line, k, ImageURL{URL: u}))
			}
		}
		if m.Parts == nil && m.Content != nil {
			m.Parts = []Part{{Type: "text", Text: m.Content}}
			m.Content = nil
		}
		m.Parts = append(parts, m.Parts...)
		c.note(c.line, "%d image(s) of the record have no <image> token in its messages: put in front of the text of the first user message", len(rest))
		return
	}
	c.note(c.line, "%d image(s) of the record have no user message to go in: left out", len(rest))
}
