// A small SVG writer: numbers printed in a fixed format, shapes appended to a body, and the
// document closed with its view box. Pictures are for people; coordinates are y-up (table).
#pragma once

#include <sstream>
#include <string>

namespace gaeval::svg {

// Escapes text for XML content and attributes.
std::string escape(const std::string& text);

// "12.35" (two decimals, no exponent).
std::string num(double v);

class Document {
  public:
    Document(double width_px, double height_px) : width_(width_px), height_(height_px) {}
    std::ostringstream& body() { return body_; }
    void add(const std::string& element) { body_ << element << '\n'; }
    std::string str() const;

  private:
    double width_, height_;
    std::ostringstream body_;
};

}  // namespace gaeval::svg
