/** UI text of Settings' integration cards (image URLs, webhooks), in English and Vietnamese. */
export const integrationEn = {
  'imageUrls.title': 'Image URLs in data',
  'imageUrls.subtitle':
    'Let spreadsheet cells and render values name images by http(s) address. Off by default: Render Desk then works fully offline.',
  'imageUrls.enabled': 'Fetch images from http(s) addresses',
  'imageUrls.hosts': 'Allowed hosts',
  'imageUrls.hosts.hint':
    'One per line, such as images.example.com, or *.cdn.example.com for its subdomains. Empty: any public host. Addresses on this computer or your local network are always refused.',
  'imageUrls.saved': 'Image URL setting saved',
  'imageUrls.rules':
    'At most 20 MB an image, 15 s a fetch, 5 redirects. Fetched images are cached in the data folder.',
  'apiError.url-not-allowed':
    'Image URLs are off. Turn them on in Settings → Image URLs, or use a file or an upload.',
  'apiError.image-url-refused': 'That image address is not allowed (host or network).',
  'apiError.image-url-unreachable': 'That image address could not be fetched.',
  'apiError.image-url-too-large': 'The image at that address is over 20 MB.',
  'apiError.image-url-not-an-image': 'That address does not hold an image.',
  'apiError.image-url-timeout': 'That image address took too long to answer.',
  'webhooks.title': 'Webhooks',
  'webhooks.subtitle':
    'Render Desk POSTs a signed JSON message to these addresses when a batch ends, and optionally for each row that failed. Failed deliveries are retried for about two and a half hours.',
  'webhooks.url': 'Address',
  'webhooks.url.missing': 'Write the address deliveries go to.',
  'webhooks.url.invalid':
    'Write an http:// or https:// address, like http://127.0.0.1:8080/render-desk.',
  'webhooks.url.credentials':
    'Leave the user name and password out of the address; receivers check the signature instead.',
  'webhooks.url.hint':
    'An http(s) address; addresses on this computer are fine (local automation).',
  'webhooks.url.hint.cluster':
    'An http(s) address every node of the cluster can reach: any node may send a delivery.',
  'webhooks.rowFailures': 'Also send each failed row',
  'webhooks.add': 'Add webhook',
  'webhooks.secret.once':
    'Signing secret — copy it now, it is not shown again. Check the Render-Desk-Signature header with it.',
  'webhooks.none': 'No webhooks yet.',
  'webhooks.remove': 'Remove',
  'webhooks.col.url': 'Address',
  'webhooks.col.events': 'Events',
  'webhooks.col.secret': 'Secret',
  'webhooks.log': 'Deliveries',
  'webhooks.log.empty': 'Nothing sent yet.',
  'webhooks.col.time': 'Queued',
  'webhooks.col.event': 'Event',
  'webhooks.col.status': 'Status',
  'webhooks.col.attempts': 'Attempts',
  'webhooks.col.answer': 'Last answer',
  'webhooks.col.next': 'Next retry',
  'webhooks.status.pending': 'Waiting to retry',
  'webhooks.status.delivering': 'Sending',
  'webhooks.status.delivered': 'Delivered',
  'webhooks.status.failed': 'Gave up',
  'previewLinks.title': 'Preview links',
  'previewLinks.subtitle':
    'Signed image addresses for <img src> in a dev server or CMS preview, made with POST /v1/preview-links. Each distinct image costs one credit, once.',
  'previewLinks.revoke': 'Revoke all preview links',
  'previewLinks.revoke.hint':
    'Links expire by themselves (7 days unless made otherwise). Revoking replaces their signing secret: every link made so far stops working at once.',
  'previewLinks.revoke.confirm':
    'Every preview link made so far will answer 403. Pages that show them need new links.',
  'previewLinks.revoked': 'All preview links revoked',
} as const;

export const integrationVi: Record<keyof typeof integrationEn, string> = {
  'imageUrls.title': 'Địa chỉ ảnh trong dữ liệu',
  'imageUrls.subtitle':
    'Cho phép ô bảng tính và giá trị dựng ảnh trỏ tới ảnh bằng địa chỉ http(s). Mặc định tắt: Render Desk khi đó chạy hoàn toàn ngoại tuyến.',
  'imageUrls.enabled': 'Tải ảnh từ địa chỉ http(s)',
  'imageUrls.hosts': 'Máy chủ được phép',
  'imageUrls.hosts.hint':
    'Mỗi dòng một tên, ví dụ images.example.com, hoặc *.cdn.example.com cho các tên miền con. Để trống: mọi máy chủ công khai. Địa chỉ trên máy này hoặc mạng nội bộ luôn bị từ chối.',
  'imageUrls.saved': 'Đã lưu cài đặt địa chỉ ảnh',
  'imageUrls.rules':
    'Tối đa 20 MB mỗi ảnh, 15 giây mỗi lần tải, 5 lần chuyển hướng. Ảnh đã tải được lưu đệm trong thư mục dữ liệu.',
  'apiError.url-not-allowed':
    'Địa chỉ ảnh đang tắt. Bật trong Cài đặt → Địa chỉ ảnh, hoặc dùng tệp hay ảnh đã tải lên.',
  'apiError.image-url-refused': 'Địa chỉ ảnh này không được phép (máy chủ hoặc mạng).',
  'apiError.image-url-unreachable': 'Không tải được ảnh từ địa chỉ này.',
  'apiError.image-url-too-large': 'Ảnh ở địa chỉ này lớn hơn 20 MB.',
  'apiError.image-url-not-an-image': 'Địa chỉ này không chứa ảnh.',
  'apiError.image-url-timeout': 'Địa chỉ ảnh phản hồi quá lâu.',
  'webhooks.title': 'Webhook',
  'webhooks.subtitle':
    'Render Desk gửi (POST) một thông điệp JSON có chữ ký tới các địa chỉ này khi một lô kết thúc, và tùy chọn cho từng dòng bị lỗi. Lần gửi thất bại được thử lại trong khoảng hai tiếng rưỡi.',
  'webhooks.url': 'Địa chỉ',
  'webhooks.url.missing': 'Hãy nhập địa chỉ nhận thông báo.',
  'webhooks.url.invalid':
    'Hãy nhập địa chỉ http:// hoặc https://, ví dụ http://127.0.0.1:8080/render-desk.',
  'webhooks.url.credentials':
    'Đừng ghi tên đăng nhập và mật khẩu vào địa chỉ; bên nhận kiểm tra chữ ký thay cho việc đó.',
  'webhooks.url.hint': 'Một địa chỉ http(s); địa chỉ trên máy này cũng được (tự động hóa cục bộ).',
  'webhooks.url.hint.cluster':
    'Một địa chỉ http(s) mà mọi nút của cụm đều truy cập được: nút nào cũng có thể gửi.',
  'webhooks.rowFailures': 'Gửi cả từng dòng bị lỗi',
  'webhooks.add': 'Thêm webhook',
  'webhooks.secret.once':
    'Khóa ký — hãy sao chép ngay, khóa sẽ không hiện lại. Dùng khóa này để kiểm tra tiêu đề Render-Desk-Signature.',
  'webhooks.none': 'Chưa có webhook nào.',
  'webhooks.remove': 'Xóa',
  'webhooks.col.url': 'Địa chỉ',
  'webhooks.col.events': 'Sự kiện',
  'webhooks.col.secret': 'Khóa',
  'webhooks.log': 'Lần gửi',
  'webhooks.log.empty': 'Chưa gửi gì.',
  'webhooks.col.time': 'Xếp hàng lúc',
  'webhooks.col.event': 'Sự kiện',
  'webhooks.col.status': 'Trạng thái',
  'webhooks.col.attempts': 'Số lần thử',
  'webhooks.col.answer': 'Phản hồi cuối',
  'webhooks.col.next': 'Thử lại lúc',
  'webhooks.status.pending': 'Chờ thử lại',
  'webhooks.status.delivering': 'Đang gửi',
  'webhooks.status.delivered': 'Đã gửi',
  'webhooks.status.failed': 'Đã bỏ cuộc',
  'previewLinks.title': 'Liên kết xem trước',
  'previewLinks.subtitle':
    'Địa chỉ ảnh có chữ ký cho <img src> trong máy chủ phát triển hoặc bản xem trước của CMS, tạo bằng POST /v1/preview-links. Mỗi ảnh khác nhau tốn một lượt, một lần.',
  'previewLinks.revoke': 'Thu hồi mọi liên kết xem trước',
  'previewLinks.revoke.hint':
    'Liên kết tự hết hạn (7 ngày nếu không đặt khác). Thu hồi sẽ thay khóa ký: mọi liên kết đã tạo ngừng hoạt động ngay.',
  'previewLinks.revoke.confirm':
    'Mọi liên kết xem trước đã tạo sẽ trả về 403. Các trang đang hiển thị chúng cần liên kết mới.',
  'previewLinks.revoked': 'Đã thu hồi mọi liên kết xem trước',
};
