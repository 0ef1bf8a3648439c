// A phone number a volunteer can tap to call (tel:), shown as it was typed.
export function PhoneLink({ number }: { number: string }) {
  return <a href={`tel:${number.replace(/[^\d+]/g, "")}`}>{number}</a>;
}
