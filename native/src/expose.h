// A private member of a Mooncake class, named through an explicit template instantiation (which
// may name private members), so that the pinned headers are checked at compile time:
//   struct Tag { using type = T Class::*; friend type member(Tag); };
//   template struct Expose<Tag, &Class::member_>;
// then `object.*member(Tag{})`.
#pragma once

// The tags live in this namespace too: a friend defined here is the one their declaration names.
namespace kvt_shim {

template <class Tag, typename Tag::type Member>
struct Expose {
    friend typename Tag::type member(Tag) { return Member; }
};

}  // namespace kvt_shim
