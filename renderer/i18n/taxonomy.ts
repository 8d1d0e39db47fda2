import type { Language } from '../stores/ui-slice';

/**
 * The catalog's categories and sub-categories are data in English (templates name them, the API
 * filters by them); the Vietnamese UI shows them in Vietnamese. A name not listed shows as it is.
 */
const VI: Record<string, string> = {
  Badges: 'Thẻ tên',
  'Name badge': 'Thẻ đeo',
  'Blog & web': 'Blog & web',
  'Article header': 'Ảnh bìa bài viết',
  Certificate: 'Chứng nhận',
  Award: 'Giải thưởng',
  Event: 'Sự kiện',
  Announcement: 'Thông báo',
  Countdown: 'Đếm ngược',
  'Grand opening': 'Khai trương',
  'Speaker card': 'Giới thiệu diễn giả',
  Webinar: 'Hội thảo trực tuyến',
  Greeting: 'Lời chúc',
  'Holiday greeting': 'Chúc mừng ngày lễ',
  "Women's Day": 'Ngày Phụ nữ',
  Marketing: 'Tiếp thị',
  'Before & after': 'Trước & sau',
  Statistics: 'Số liệu',
  Media: 'Truyền thông',
  Podcast: 'Podcast',
  Menu: 'Thực đơn',
  'Price list': 'Bảng giá',
  Product: 'Sản phẩm',
  'App feature': 'Tính năng ứng dụng',
  'Real estate': 'Bất động sản',
  'Property listing': 'Tin đăng nhà đất',
  Recruitment: 'Tuyển dụng',
  'Job opening': 'Tin tuyển dụng',
  Sale: 'Khuyến mãi',
  'Flash sale': 'Flash sale',
  'Product promotion': 'Quảng bá sản phẩm',
  'Seasonal sale': 'Khuyến mãi theo mùa',
  'Shopping festival': 'Lễ hội mua sắm',
  'Social proof': 'Đánh giá khách hàng',
  Testimonial: 'Cảm nhận khách hàng',
  Social: 'Mạng xã hội',
  Quote: 'Trích dẫn',
};

export function taxonomyLabel(language: Language, name: string): string {
  return language === 'vi' ? (VI[name] ?? name) : name;
}
