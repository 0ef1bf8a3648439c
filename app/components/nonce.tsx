import { createContext, useContext } from "react";

/** The CSP nonce of this response; the root hands it to Remix's inline scripts. */
export const NonceContext = createContext<string | undefined>(undefined);
export const useNonce = () => useContext(NonceContext);
