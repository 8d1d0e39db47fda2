/** Asset imports resolved by Vite to a URL. */
declare module '*?url' {
  const url: string;
  export default url;
}

declare module '*.css';
